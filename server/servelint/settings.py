"""User settings, from the command line, the editor, or the project's config file.

A project configures servelint in ``.servelint.toml`` or in the
``[tool.servelint]`` table of ``pyproject.toml``, found by walking up from the
linted file::

    vllm-version = "0.28.0"
    target = "cuda"              # cuda | rocm | cpu | tpu | xpu
    records = ["records/"]       # extra error-record files or folders
    disable = ["deprecated-flag"]
    max-launches = 1000          # launches checked per file; 0: all
    [severity]
    unknown-flag = "warning"
"""

from __future__ import annotations

import os
from functools import lru_cache

from .structs import dataclass, replace
from .diagnostics import Severity

TARGETS = ("cuda", "rocm", "cpu", "tpu", "xpu")

# Launches checked per file.  A real file holds a few, a generated matrix a
# few hundred; checking one costs 0.2-0.5 ms, so 10,000 would take seconds
# of an editor's time.  Past the limit a file gets one SL012 instead.
DEFAULT_MAX_LAUNCHES = 1000


@dataclass(frozen=True)
class Settings:
    """What a lint runs with; hashable, so rule lists are cached per settings."""

    vllm_version: str | None = None
    target: str = "cuda"
    records: tuple[str, ...] = ()
    severity: tuple[tuple[str, Severity], ...] = ()  # rule name or code → severity
    disable: frozenset[str] = frozenset()  # rule names or codes
    lint_run: str = "onType"  # onType | onSave (the language server)
    use_installed_vllm: bool = True
    max_launches: int = DEFAULT_MAX_LAUNCHES  # 0: no limit

    def severity_for(self, name: str, code: str, default: Severity) -> Severity:
        for key, sev in self.severity:
            if key in (name, code):
                return sev
        return default

    def enabled(self, name: str, code: str) -> bool:
        return name not in self.disable and code not in self.disable

    def merged(self, **changes) -> "Settings":
        clean = {k: v for k, v in changes.items() if v is not None}
        return replace(self, **clean)

    @classmethod
    def from_mapping(cls, data: dict, base: "Settings | None" = None, root: str | None = None) -> "Settings":
        """Settings from a TOML table or an editor's JSON settings object.

        Keys may be kebab-case (TOML) or camelCase (VS Code).  Unknown keys
        are ignored so an older servelint accepts a newer config.
        """
        base = base or cls()
        get = lambda *names: next((data[n] for n in names if n in data), None)  # noqa: E731
        changes: dict = {}
        version = get("vllm-version", "vllmVersion", "vllm_version")
        if isinstance(version, str) and version.strip():
            changes["vllm_version"] = version.strip()
        target = get("target")
        if isinstance(target, str) and target in TARGETS:
            changes["target"] = target
        records = get("records")
        if isinstance(records, str):
            records = [records]
        if isinstance(records, list):
            paths = [str(r) for r in records if isinstance(r, (str, os.PathLike))]
            if root:
                paths = [p if os.path.isabs(p) else os.path.join(root, p) for p in paths]
            changes["records"] = tuple(paths)
        severity = get("severity")
        if isinstance(severity, dict):
            pairs = []
            for key, value in severity.items():
                try:
                    pairs.append((str(key), Severity.parse(str(value))))
                except KeyError:
                    continue
            changes["severity"] = tuple(pairs)
        disable = get("disable", "rulesOff", "rules-off")
        if isinstance(disable, list):
            changes["disable"] = frozenset(str(d) for d in disable)
        limit = get("max-launches", "maxLaunches", "max_launches")
        if isinstance(limit, int) and not isinstance(limit, bool) and limit >= 0:
            changes["max_launches"] = limit
        lint = get("lint")
        run = get("lint-run", "lintRun")
        if isinstance(lint, dict):
            run = lint.get("run", run)
        if run in ("onType", "onSave"):
            changes["lint_run"] = run
        return replace(base, **changes)


CONFIG_NAMES = (".servelint.toml", "pyproject.toml")


@lru_cache(maxsize=256)
def _project_config(directory: str, stamp: tuple) -> tuple[dict, str] | None:
    for name in CONFIG_NAMES:
        path = os.path.join(directory, name)
        if not os.path.isfile(path):
            continue
        try:
            import tomllib
        except ImportError:  # pragma: no cover - Python 3.10
            import tomli as tomllib  # type: ignore[no-redef]
        try:
            with open(path, "rb") as fh:
                data = tomllib.load(fh)
        except (OSError, ValueError):
            continue
        if name == "pyproject.toml":
            data = data.get("tool", {}).get("servelint")
            if not isinstance(data, dict):
                continue
        return data, path
    return None


def find_project_config(start: str) -> tuple[dict, str] | None:
    """The nearest ``.servelint.toml`` or ``[tool.servelint]`` above ``start``."""
    directory = os.path.abspath(start if os.path.isdir(start) else os.path.dirname(start) or ".")
    while True:
        stamp = tuple(
            os.stat(os.path.join(directory, n)).st_mtime_ns if os.path.exists(os.path.join(directory, n)) else 0
            for n in CONFIG_NAMES
        )
        if any(stamp):
            found = _project_config(directory, stamp)
            if found is not None:
                return found
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def for_file(path: str, base: Settings) -> Settings:
    """``base`` (CLI or editor settings) over the project's config file."""
    found = find_project_config(path)
    if found is None:
        return base
    data, config_path = found
    project = Settings.from_mapping(data, root=os.path.dirname(config_path))
    # Explicit CLI/editor settings win over the project file.
    defaults = Settings()
    merged = {}
    for fld in ("vllm_version", "target", "records", "severity", "disable", "lint_run", "max_launches"):
        mine = getattr(base, fld)
        merged[fld] = mine if mine != getattr(defaults, fld) else getattr(project, fld)
    return replace(base, **merged)
