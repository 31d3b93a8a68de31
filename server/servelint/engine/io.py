"""What the engine reads besides the document: files a launch names
(``--config``), error records, and model facts (local ``config.json``, the
Hugging Face cache, the generated table), with their caches."""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping

from .. import LazyLogger
from ..model import Launch, Word
from ..text import SourceText

log = LazyLogger(__name__)

# Files larger than this are not linted (an information diagnostic says so):
# no launch file is this big, and an editor must stay responsive.
MAX_DOCUMENT_CHARS = 5_000_000


def read_text_file(path: str) -> str | None:
    try:
        # Non-blocking, and regular files only: a --config naming a FIFO or a
        # device must not hang the lint (and with it the language server).
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with open(fd, encoding="utf-8", errors="replace") as fh:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None
            return fh.read(MAX_DOCUMENT_CHARS + 1)
    except (OSError, ValueError):
        return None


def load_build(path: str, launch: Launch, read_file, sources: dict[str, SourceText]) -> tuple["Launch | None", str]:
    """A compose service built from a Dockerfile (``Launch.build``), read
    with that Dockerfile: ``(the launch as the image runs it, state)``.

    The state is "missing" or a digest of the Dockerfile read (the launch's
    key holds it, so an edit of the Dockerfile is seen); the text goes into
    ``sources`` (findings on its ENTRYPOINT words point into it).  The
    launch is None when the Dockerfile shows the service does not start
    vLLM; without the file it is returned as it was, its entry point unknown.
    """
    from ..parse.compose import with_built_image

    build = launch.build
    target = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(path)), build.path))
    text = read_file(target)
    if text is None:
        return launch, "missing"
    import hashlib

    sources[target] = SourceText(text)
    return with_built_image(launch, text, target), hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()


# -- Helm charts: a template's launches rendered with the chart's values ----------------

_VALUES_FILES = ("values.yaml", "values.yml")


def chart_of(path: str) -> tuple[str, str] | None:
    """``(the chart's folder, "template" or "values")`` when ``path`` is a
    template of a chart (a file under a ``templates/`` folder) or its
    values file; None otherwise.  The folder is spelled from ``path`` (as
    the user named the file, so are the chart's other files in reports).
    Whether the chart has a ``Chart.yaml`` or values file is checked by
    the reader."""
    here = os.path.dirname(path) or "."
    if os.path.basename(path) in _VALUES_FILES:
        return (here, "values") if os.path.isdir(os.path.join(here, "templates")) else None
    folder = os.path.dirname(os.path.normpath(os.path.abspath(path)))
    for up in range(4):  # templates/ may have folders of its own
        if os.path.basename(folder) == "templates":
            return os.path.normpath(os.path.join(here, *([os.pardir] * (up + 1)))), "template"
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return None


def _digest(text: str) -> str:
    import hashlib

    return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()


def template_values(path: str, source: SourceText, launches: list[Launch], read_file,
                    sources: dict[str, SourceText]) -> dict[int, tuple[Launch, str]]:
    """A chart template's launches rendered with the chart's values file
    (its defaults, as ``helm template`` without ``-f``), by index: ``(the
    launch, state)``.  Only launches whose words come from ``.Values`` are
    there.  The state is "values-missing" or a digest of the values file
    read (the launch's key holds it, so an edit of the values file is seen);
    the text goes into ``sources`` (findings on its words point into it)."""
    if not source.mentions(".Values"):
        return {}
    text = source.text
    chart = chart_of(path)
    if chart is None or chart[1] != "template":
        return {}
    # Only for a chart's template: a shell script's lint never loads YAML.
    from ..parse import helm, templates

    uses = templates.values_uses(text, launches)
    if not any(uses):
        return {}
    folder = chart[0]
    values_path, values_text = None, None
    for name in _VALUES_FILES:
        values_path = os.path.join(folder, name)
        values_text = read_file(values_path)
        if values_text is not None:
            break
    if values_text is None:
        if not os.path.exists(os.path.join(folder, "Chart.yaml")):
            return {}  # not a chart: a templates/ folder of something else
        return {i: (launches[i], "values-missing") for i, use in enumerate(uses) if use is not None}
    state = "values:" + _digest(values_text)
    doc = helm.values_root(values_text)
    out: dict[int, tuple[Launch, str]] = {}
    for i, use in enumerate(uses):
        if use is None:
            continue
        got = helm.render(launches[i], use, doc, values_path, path) if doc is not None else None
        out[i] = (got[0] if got is not None else launches[i], state)
        if got is not None:
            sources[values_path] = SourceText(values_text)
    return out


def values_launches(path: str, text: str, launches: list[Launch], read_file,
                    sources: dict[str, SourceText]) -> tuple[list[Launch], dict[int, str]]:
    """A chart's values file's launches, with its templates' launches
    rendered with it: ``(the launches, state by index of the rendered
    ones)``.  A template's launch replaces the argument lists of the values
    file it shows how vLLM receives; without one, the launches are the
    values file's own.  The state is a digest of the templates read."""
    chart = chart_of(path)
    if chart is None or chart[1] != "values":
        return launches, {}
    from ..parse import helm, parse_document, templates

    folder = os.path.join(chart[0], "templates")
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return launches, {}
    doc = None
    rendered: list[tuple[Launch, list]] = []
    read: list[str] = []
    for name in names:
        if name.startswith("_") or not name.endswith((".yaml", ".yml")):
            continue
        template_path = os.path.join(folder, name)
        template_text = read_file(template_path)
        if template_text is None or ".Values" not in template_text or "vllm" not in template_text.lower():
            continue
        if doc is None:
            doc = helm.values_root(text)
            if doc is None:
                return launches, {}
        parsed = parse_document(template_path, template_text)
        found = 0
        for launch, use in zip(parsed.launches, templates.values_uses(template_text, parsed.launches)):
            got = helm.render(launch, use, doc, path, template_path, in_values=True) if use is not None else None
            if got is not None:
                rendered.append(got)
                found += 1
        if found:
            sources[template_path] = SourceText(template_text)
            read.append(template_path + ":" + _digest(template_text))
    if not rendered:
        return launches, {}
    joined = helm.joined(launches, rendered)
    state = "templates:" + _digest("\n".join(read))
    ids = {id(launch) for launch, _ in rendered}
    return joined, {i: state for i, launch in enumerate(joined) if id(launch) in ids}


def load_config(path: str, ref: Word | None, read_file, sources: dict[str, SourceText], written=None):
    """The --config file a launch names with ``ref`` (the launch ``path``
    is in): ``(ref, its launch, state, its path)``.  The state is "" (no
    such file named), "not-yaml", "missing", or a digest of the text read
    (the launch's key holds it); the text read goes into ``sources``.

    ``written``: the file as the document itself writes it before the
    launch (``Launch.written_config``, a heredoc): used instead of reading
    the path, its words already placed in the document."""
    if written is not None and ref is not None:
        return ref, written, _written_digest(written), None
    if ref is None or not ref.exact:
        return None, None, "", None
    target = os.path.expanduser(ref.text)
    if not os.path.isabs(target):
        target = os.path.join(os.path.dirname(os.path.abspath(path)), target)
    target = os.path.normpath(target)
    if not target.endswith((".yaml", ".yml")):
        return ref, None, "not-yaml", None
    text = read_file(target)
    if text is None:
        return ref, None, "missing", None
    import hashlib  # only for a launch naming a --config file: ~11M instructions of a cold check

    digest = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()
    from ..parse.vllm_config import parse_vllm_config

    parsed = parse_vllm_config(target, text)
    sources[target] = SourceText(text)
    cfg = parsed.launches[0] if parsed.launches else None
    if cfg is not None:
        for w in cfg.args:
            w.path = target
    return ref, cfg, digest, target


def _written_digest(cfg) -> str:
    """A written config's state for the launch's key: its words and where."""
    return "written:" + repr([(w.text, w.span.start, w.exact) for w in cfg.args])


def project_pin(path: str, read_file):
    """The release the project files beside ``path`` pin (``uv.lock``,
    ``requirements.txt``, ``pyproject.toml``; ``release.project_pin``
    decides), or None."""
    from ..release import PROJECT_FILES, project_pin as choose_pin

    folder = os.path.dirname(os.path.abspath(path))
    found = []
    for name in PROJECT_FILES:
        candidate = os.path.join(folder, name)
        if candidate == os.path.abspath(path):
            continue
        text = read_file(candidate)
        if text:
            found.append((candidate, text))
    return choose_pin(found) if found else None


def load_records(paths):
    """The error records: the bundled ones and those under ``paths``."""
    from ..records import RecordStore

    return RecordStore.load(paths)


class _LaunchEnv(Mapping):
    """The environment a launch's model is resolved in: its own variables
    over the process's, neither copied (a script can export thousands), and
    every name looked up recorded, so that a resolution can be reused for a
    launch whose environment agrees on those names."""

    __slots__ = ("_vars", "reads")

    def __init__(self, variables: Mapping) -> None:
        self._vars = variables
        self.reads: dict[str, str | None] | None = {}  # None: read whole, not reusable

    def __getitem__(self, name: str) -> str:
        var = self._vars.get(name)
        value = var.value if var is not None and var.value is not None else os.environ.get(name)
        if self.reads is not None:
            self.reads[name] = value
        if value is None:
            raise KeyError(name)
        return value

    def __iter__(self):
        self.reads = None
        names = {name for name, var in self._vars.items() if var.value is not None}
        return iter(names | set(os.environ))

    def __len__(self) -> int:
        return sum(1 for _ in self)


class Models:
    """Model resolutions (local files, the Hugging Face cache, the table),
    each kept with the environment values it read: the launches of a
    manifest or a repository name the same few models."""

    def __init__(self) -> None:
        self._found: dict[tuple, list[tuple[tuple, object]]] = {}

    def clear(self) -> None:
        self._found.clear()

    def __call__(self, inv: "argv.Invocation", base_dir: str | None):
        from ..knowledge.models import resolve_model

        if inv.model is not None and not inv.model.exact:
            return None
        flag = inv.last("hf_overrides")
        written = flag.values[0].text if flag is not None and flag.values else None
        from ..derive.model import config_revision

        revision, bundled = config_revision(inv)
        key = (inv.model_name, base_dir, written, revision, bundled)
        seen = self._found.setdefault(key, [])
        for reads, found in seen:
            if all(_env_value(inv, name) == value for name, value in reads):
                return found
        overrides = None
        if written is not None:
            import json

            try:
                overrides = json.loads(written)
            except (ValueError, RecursionError):
                overrides = None
            if not isinstance(overrides, dict):
                overrides = None
        env = _LaunchEnv(inv.env)
        try:
            found = resolve_model(inv.model_name, base_dir=base_dir, env=env, hf_overrides=overrides,
                                  revision=revision, bundled=bundled)
        except Exception:  # resolution is best effort; rules then stay silent
            log.exception("model resolution failed for %r", inv.model_name)
            return None
        if env.reads is not None and len(seen) < 8:
            seen.append((tuple(env.reads.items()), found))
        return found


def _env_value(inv: "argv.Invocation", name: str) -> str | None:
    var = inv.env.get(name)
    return var.value if var is not None and var.value is not None else os.environ.get(name)


def _resolve_model(inv: "argv.Invocation", base_dir: str | None):
    """One launch's model resolution, remembering nothing (for tests and tools)."""
    return Models()(inv, base_dir)
