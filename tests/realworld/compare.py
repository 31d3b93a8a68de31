"""Run servelint on the real-world corpus and compare it with the truth.

Shared by test_realworld.py (which holds servelint to expected.yaml, except
for the disagreements listed in KNOWN.md) and score.py (which prints
precision, recall and launches seen).  Everything servelint says comes from
the real program, run as a subprocess: `servelint check --format json` for
the findings, and, for "which launches did it see", a short script that
lists the launches of servelint's own Engine in the same environment (the
CLI has no way to print them yet; issue 16 asks for `check --show-launches`,
which should replace the script once it exists).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
FILES = HERE / "files"
SEVERITIES = ("error", "warning")

# The entry points a servelint launch may show for each entry of the truth
# (servelint's `Entry` values, matched by substring).
ENTRY_OK = {
    "vllm serve": ("vllm serve",),
    "api_server": ("openai.api_server",),
    "demo api_server": ("entrypoints.api_server",),
    "image": ("image", "vllm serve"),
    "image api_server": ("image", "openai.api_server"),
    "image unknown": ("image",),
    "operator": ("vllm serve", "image", "openai.api_server"),
}


def servelint_cmd() -> list[str]:
    """The servelint console script of the environment running the tests."""
    exe = Path(sys.executable).with_name("servelint")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "servelint"]


def norm_flag(flag: str | None) -> str | None:
    """`--speculative_model=x` and `--speculative-model` name one option."""
    if not flag:
        return None
    name = flag.split("=", 1)[0].split(" ", 1)[0]
    head, dot, rest = name.partition(".")
    return head.replace("_", "-").lower() + dot + rest


@dataclass(frozen=True)
class Expected:
    path: str
    line: int
    severity: str
    code: str | None
    flag: str | None
    about: str

    @property
    def key(self) -> str:
        return f"{self.path}:{self.line}:{self.severity}:{self.code or self.flag or '-'}"

    def matches(self, f: "Found") -> bool:
        return (
            f.path == self.path and f.line == self.line and f.severity == self.severity
            and (self.code is None or f.code == self.code)
            and (self.flag is None or norm_flag(f.flag) == norm_flag(self.flag))
        )


@dataclass(frozen=True)
class Found:
    path: str
    line: int
    severity: str
    code: str
    flag: str | None
    message: str

    @property
    def key(self) -> str:
        return f"{self.path}:{self.line}:{self.severity}:{self.code}"


@dataclass(frozen=True)
class ExpectedLaunch:
    path: str
    line: int
    entry: str

    @property
    def key(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(frozen=True)
class SeenLaunch:
    path: str
    entry: str
    first: int  # 1-based line of the entry point
    last: int  # 1-based last line of the launch


@dataclass
class Comparison:
    expected: list[Expected]
    found: list[Found]
    launches: list[ExpectedLaunch]
    seen: list[SeenLaunch]
    report: list[dict] = field(default_factory=list)  # servelint's diagnostics, all severities
    matched: dict[str, Found] = field(default_factory=dict)  # expected key -> finding
    missing: list[Expected] = field(default_factory=list)
    unexpected: list[Found] = field(default_factory=list)
    launch_of: dict[str, SeenLaunch] = field(default_factory=dict)  # expected launch key -> seen
    not_seen: list[ExpectedLaunch] = field(default_factory=list)
    wrong_entry: list[tuple[ExpectedLaunch, SeenLaunch]] = field(default_factory=list)


def load_truth() -> dict:
    with open(HERE / "expected.yaml", encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def expectations(truth: dict) -> tuple[list[Expected], list[ExpectedLaunch]]:
    findings, launches = [], []
    for path, entry in truth["files"].items():
        for f in entry.get("findings") or []:
            if f["severity"] in SEVERITIES:
                findings.append(Expected(path, int(f["line"]), f["severity"], f.get("code"), f.get("flag"), f.get("about", "")))
        for launch in entry.get("launches") or []:
            launches.append(ExpectedLaunch(path, int(launch["line"]), launch["entry"]))
    return findings, launches


def _rel(path: str, cwd: Path) -> str:
    full = Path(path) if os.path.isabs(path) else cwd / path
    try:
        return full.resolve().relative_to(FILES).as_posix()
    except ValueError:
        return full.as_posix()


def run_servelint() -> tuple[list[Found], list[dict]]:
    """Every error and warning servelint reports on the corpus (one run), and
    the whole report (every diagnostic as the JSON output has it)."""
    proc = subprocess.run(
        [*servelint_cmd(), "check", "--format", "json", "--fail-on", "never", "--no-config", "."],
        cwd=FILES, capture_output=True, text=True, timeout=600,
    )
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"servelint check failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    report = json.loads(proc.stdout)
    found: dict[tuple, Found] = {}
    for d in report["diagnostics"]:
        if d["severity"] not in SEVERITIES:
            continue
        f = Found(_rel(d["path"], FILES), d["range"]["start"]["line"] + 1, d["severity"], d["code"],
                  d.get("flag"), d.get("message", ""))
        # A --config file's findings can come twice (from the file itself and
        # from the launch naming it): the same finding is one finding.
        found.setdefault((f.path, f.line, f.severity, f.code, norm_flag(f.flag)), f)
    return list(found.values()), report["diagnostics"]


_LAUNCH_SCRIPT = r"""
import json, os, sys
from servelint.text import SourceText
try:
    from servelint.engine import Engine
    engine = Engine()
    def launches(path, text):
        return [r.launch for r in engine.lint(path, text).launches]
except Exception:  # an engine that cannot be built here: the parser alone
    from servelint.parse import parse_document
    def launches(path, text):
        return parse_document(path, text).launches
out = []
for path in sys.argv[1:]:
    with open(path, encoding="utf-8", errors="replace") as fh:
        text = fh.read()
    src = SourceText(text)
    for launch in launches(path, text):
        first = src.position(launch.entry_span.start)[0]
        last = max(src.position(launch.span.end)[0], first)
        start = min(src.position(launch.span.start)[0], first)
        out.append({"path": path, "entry": launch.entry.value, "first": first + 1,
                    "start": start + 1, "last": last + 1})
print(json.dumps(out))
"""


def run_launches(paths: list[str]) -> list[SeenLaunch]:
    """The launches servelint's engine finds in each corpus file."""
    proc = subprocess.run(
        [sys.executable, "-c", _LAUNCH_SCRIPT, *paths], cwd=FILES, capture_output=True, text=True, timeout=600,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"listing servelint's launches failed:\n{proc.stderr[-3000:]}")
    seen = []
    for item in json.loads(proc.stdout):
        seen.append(SeenLaunch(_rel(item["path"], FILES), item["entry"], item["start"], item["last"]))
    return seen


def entry_ok(truth_entry: str, seen_entry: str) -> bool:
    return any(s in seen_entry for s in ENTRY_OK.get(truth_entry, (truth_entry,)))


def compare(truth: dict | None = None, found: list[Found] | None = None,
            seen: list[SeenLaunch] | None = None) -> Comparison:
    truth = truth if truth is not None else load_truth()
    expected, launches = expectations(truth)
    report: list[dict] = []
    if found is None:
        found, report = run_servelint()
    seen = seen if seen is not None else run_launches(sorted(truth["files"]))
    cmp = Comparison(expected, found, launches, seen, report)

    used: set[int] = set()
    for e in expected:
        hit = next((i for i, f in enumerate(found) if i not in used and e.matches(f)), None)
        if hit is None:
            cmp.missing.append(e)
        else:
            used.add(hit)
            cmp.matched[e.key] = found[hit]
    for i, f in enumerate(found):
        if i in used:
            continue
        # A second finding at an expected place (another code for the same
        # problem) is neither a match nor a new problem when the expected
        # one names no code: count it as matched, not as unexpected.
        if any(e.code is None and e.flag is None and e.path == f.path and e.line == f.line
               and e.severity == f.severity for e in expected):
            continue
        cmp.unexpected.append(f)

    taken: set[int] = set()
    for want in launches:
        # The smallest servelint launch whose lines cover the expected line.
        candidates = [
            (s.last - s.first, i) for i, s in enumerate(seen)
            if i not in taken and s.path == want.path and s.first <= want.line <= s.last
        ]
        if not candidates:
            cmp.not_seen.append(want)
            continue
        _, i = min(candidates)
        taken.add(i)
        cmp.launch_of[want.key] = seen[i]
        if not entry_ok(want.entry, seen[i].entry):
            cmp.wrong_entry.append((want, seen[i]))
    return cmp


# ---------------------------------------------------------------- KNOWN.md

_ROW = re.compile(r"^\|(.+)\|\s*$")


@dataclass(frozen=True)
class Known:
    kind: str  # missing | unexpected | message | not-seen | wrong-entry | category
    key: str  # as Expected.key / Found.key / ExpectedLaunch.key
    what: str
    item: str


def load_known(path: Path = HERE / "KNOWN.md") -> list[Known]:
    """The table rows of KNOWN.md: | kind | file:line | severity | code | what | item |
    (a `category` row names the code in its `code` column)."""
    rows = []
    if not path.exists():
        return rows
    for line in path.read_text(encoding="utf-8").splitlines():
        m = _ROW.match(line.strip())
        if not m:
            continue
        cells = [c.strip().strip("`") for c in m.group(1).split("|")]
        if len(cells) < 6 or cells[0] in ("kind", "") or set(cells[0]) <= set("-: "):
            continue
        kind, place, severity, code, what, item = cells[:6]
        if kind in ("missing", "unexpected", "message"):
            key = f"{place}:{severity}:{code or '-'}"
        elif kind == "category":
            key = code
        else:
            key = place
        rows.append(Known(kind, key, what, item))
    return rows


def disagreements(cmp: Comparison) -> list[tuple[str, str, str]]:
    """(kind, key, description) for every way servelint differs from the truth."""
    out = [("missing", e.key, e.about) for e in cmp.missing]
    out += [("unexpected", f.key, f.message) for f in cmp.unexpected]
    out += [("not-seen", w.key, w.entry) for w in cmp.not_seen]
    out += [("wrong-entry", w.key, f"{w.entry} seen as {s.entry}") for w, s in cmp.wrong_entry]
    return out
