"""The long fuzz run: a million mutated documents, fast, seeded, in one process.

Hypothesis (the ``test_fuzz_*`` modules) finds structure-aware bugs but makes
a few hundred documents a second at best; this driver reaches the issue's
one million by mutating a corpus instead: every launch-form sample
(``tests/forms/``), every rule golden input (``tests/rules/golden/``), the
``examples/``, the bundled records and their ``exampleFix`` text.  Each
document is the corpus text after 1-6 random mutations of the kinds an
editor produces while someone types or pastes: a token inserted (flags,
values, quotes, heredocs, YAML indicators, non-ASCII), a range cut or
duplicated, a splice with another corpus file, a line moved or re-indented,
a byte flipped, or the text stopped half way.

Targets and their oracles (any exception, or an error logged by servelint,
is a crash; a document running over ``--hang-s`` is a hang):

* ``shell``, ``yaml``, ``config-yaml``, ``dockerfile``: the parsers, strict
  (``SERVELINT_STRICT=1``: a parser bug raises instead of returning an empty
  document); every span inside the text, no "internal error" problem;
* ``shell-incremental``: the re-parse of an edited script equals a full parse;
* ``exampleFix``: the record ``exampleFix`` reader;
* ``records``: loading a record file (JSON, JSON lines, cut off) and matching
  messages against its patterns;
* ``engine``: the full ``Engine().lint`` (parse, release, argv, every rule,
  records, fixes, suppressions) on any form, under random settings: no SL000,
  every range in its file, every output format and the LSP conversion accept
  the result, and (for some documents) the first fix applied lints again;
* ``lsp-edits`` (``--lsp-documents``): the random incremental edit sequences
  of ``test_fuzz_lsp.py`` against a real ``servelint lsp``, run after the rest.

Each failing input is saved under ``--crashers`` (``tests/fuzz/found/``):
``<target>-<kind>-<digest>.txt`` is the input, ``.json`` what else repeats
it (file name, settings), ``.err`` the traceback.  Copied into
``tests/fuzz/regressions/``, the pair becomes a test (``test_regressions.py``
replays it with ``replay``).  The figures go to ``--report``
(``tests/fuzz/LONGRUN.md``), rewritten as the run goes, so an interrupted
run still says how far it got.

    make fuzz    # = python tests/fuzz/longrun.py --documents 1010000 --seed 20261130 --lsp-documents 100
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import io
import json
import logging
import os
import platform
import random
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "server"))
os.environ["SERVELINT_STRICT"] = "1"

from fuzz_support import FLAGS, INTERNAL_MARKERS, JUNK, MODELS, VALUES, check_spans  # noqa: E402

from servelint.engine import pipeline as engine_mod  # noqa: E402
from servelint import knowledge  # noqa: E402
from servelint.engine import Engine  # noqa: E402
from servelint.fixes.apply import apply_edits  # noqa: E402
from servelint.fixes.example_fix import _parse_alternatives  # noqa: E402
from servelint.output import WRITERS  # noqa: E402
from servelint.parse import parse_document  # noqa: E402
from servelint.parse.dockerfile import parse_dockerfile_document  # noqa: E402
from servelint.parse.dump import dump_document  # noqa: E402
from servelint.parse.shell import parse_shell_document  # noqa: E402
from servelint.parse.vllm_config import parse_vllm_config  # noqa: E402
from servelint.parse.yamlforms import parse_yaml_document  # noqa: E402
from servelint.records import RecordStore  # noqa: E402
from servelint.settings import Settings  # noqa: E402
from servelint.text import SourceText  # noqa: E402

# How the documents are shared out (per 1,010 documents): parsers are fast
# (~0.3 ms a document), the whole engine ~4 ms, an incremental engine case
# ~7 ms; the default run of 1,010,000 documents gives the engine 60,000 and
# takes ~12 CPU minutes on an idle core.
DEFAULT_WEIGHTS = {
    "shell": 300, "shell-incremental": 60, "yaml": 220, "config-yaml": 110, "dockerfile": 90,
    "exampleFix": 130, "records": 40, "engine": 50, "engine-incremental": 10,
}


# -- the corpus ----------------------------------------------------------------------

def _kind(path: Path) -> str | None:
    name = path.name
    if name.endswith((".json", ".out")):
        return None
    if name.endswith((".sh", ".bash", ".sbatch")) or path.parent.name == "shell":
        return "shell"
    if name.endswith((".yaml", ".yml")):
        return "yaml"
    if "dockerfile" in str(path).lower():
        return "dockerfile"
    return None


def load_corpus() -> dict[str, list[str]]:
    corpus: dict[str, list[str]] = defaultdict(list)
    for base in (ROOT / "tests" / "forms", ROOT / "tests" / "rules" / "golden", ROOT / "examples"):
        for path in sorted(base.rglob("*")):
            kind = _kind(path) if path.is_file() else None
            if kind is None:
                continue
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            corpus[kind].append(text)
            if path.parent.name == "vllm-config" or "config" in path.name:
                corpus["config-yaml"].append(text)
    corpus["config-yaml"] += [t for t in corpus["yaml"] if "apiVersion" not in t and "services:" not in t]
    for name in ("seeds.json", "servelint.json"):
        data = json.loads((ROOT / "server" / "servelint" / "records" / name).read_text(encoding="utf-8"))
        for item in data.get("records", data) if isinstance(data, dict) else data:
            rec = item.get("record", item) if isinstance(item, dict) else item
            if not isinstance(rec, dict):
                continue
            corpus["records"].append(json.dumps(rec, indent=1))
            corpus["records"].append(json.dumps({"records": [rec, rec]}))
            if isinstance(rec.get("exampleFix"), str):
                corpus["exampleFix"].append(rec["exampleFix"])
    # exampleFix text is shell launches under "# before" / "# after" / "# or":
    # made of the corpus's own launches, in threes.
    launches = []
    for text in corpus["shell"]:
        for launch in parse_shell_document("x.sh", text).launches:
            launches.append(text[launch.span.start:launch.span.end])
    for i in range(0, len(launches) - 2):
        before, after, alt = launches[i:i + 3]
        corpus["exampleFix"].append(f"# before\n{before}\n# after\n{after}\n# or\n{alt}\n")
    return dict(corpus)


def token_pool(corpus: dict[str, list[str]]) -> list[str]:
    words: set[str] = set()
    for texts in corpus.values():
        for t in texts:
            words.update(w for w in t.split() if len(w) < 60)
    extra = ["# before\n", "# after\n", "# or\n", "#before", "# after (x)", "\n  - ", "\n- ", ": ", ": |\n", ": >-\n",
             "\n    ", "&x ", "*x", "!!str ", "? ", "{", "}", "[", "]", ",", "'", '"', "\\\n", "\\", "$", "${", "$(",
             "<<-EOF\n", "<<\"EOF\"\n", "EOF\n", "<<EOF\n", "\t", "\r\n", "\r", "\x00", "\ufeff", "\u2028", "\x85",
             "é", "模型", "😀", "\uffff", "ENTRYPOINT ", "CMD ", "RUN ", "FROM x\n", "# escape=`\n",
             "`", "args:", "command:", "env:", "---\n", "...\n", "%YAML 1.2\n", "&a [*a]", "null", "~", "0x1f", "1e400",
             "\"\\u0000\"", "'''", "\"\"\"", '{"a":', "]]", "[[", "}}", "{{ .Values.x }}", "{{-", "-}}"]
    return sorted(words) + FLAGS + VALUES + MODELS + JUNK + extra


class Mutator:
    def __init__(self, rng: random.Random, corpus: dict[str, list[str]]) -> None:
        self.rng = rng
        self.corpus = corpus
        self.everything = [t for texts in corpus.values() for t in texts]
        self.tokens = token_pool(corpus)

    def _at(self, text: str) -> int:
        return self.rng.randrange(len(text) + 1)

    def mutate(self, text: str, pool: list[str]) -> str:
        rng = self.rng
        n = 1 + min(int(rng.expovariate(0.6)), 8)
        for _ in range(n):
            op = rng.randrange(12)
            at = self._at(text)
            if op <= 2:  # insert a token
                text = text[:at] + rng.choice(self.tokens) + text[at:]
            elif op == 3:  # cut
                text = text[:at] + text[at + rng.randrange(1, 40):]
            elif op == 4:  # duplicate a range
                end = min(len(text), at + rng.randrange(1, 80))
                text = text[:end] + text[at:end] + text[end:]
            elif op == 5:  # splice with another document
                other = rng.choice(pool if rng.random() < 0.8 else self.everything)
                text = text[:at] + other[rng.randrange(len(other) + 1):]
            elif op == 6:  # stopped half way
                text = text[:at]
            elif op == 7:  # a character replaced
                if text:
                    i = min(at, len(text) - 1)
                    text = text[:i] + chr(rng.choice([rng.randrange(32, 127), rng.randrange(0, 32), rng.randrange(128, 0x3000),
                                                      0x10000 + rng.randrange(0x1000)])) + text[i + 1:]
            elif op == 8:  # a line moved or duplicated
                lines = text.split("\n")
                i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
                line = lines[i] if rng.random() < 0.5 else lines.pop(i)
                lines.insert(min(j, len(lines)), line)
                text = "\n".join(lines)
            elif op == 9:  # re-indented
                start = text.rfind("\n", 0, at) + 1
                if rng.random() < 0.5:
                    text = text[:start] + " " * rng.choice([1, 2, 4]) + text[start:]
                else:
                    k = 0
                    while start + k < len(text) and text[start + k] == " " and k < 4:
                        k += 1
                    text = text[:start] + text[start + rng.randrange(k + 1):]
            elif op == 10:  # a byte flipped in the UTF-8 form
                raw = bytearray(text.encode("utf-8", "surrogatepass"))
                if raw:
                    raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
                text = raw.decode("utf-8", "replace")
            else:  # a word swapped for another
                words = text.split(" ")
                if words:
                    words[rng.randrange(len(words))] = rng.choice(self.tokens)
                    text = " ".join(words)
        return text

    def document(self, kind: str) -> str:
        pool = self.corpus[kind]
        text = self.rng.choice(pool)
        return text if self.rng.random() < 0.02 else self.mutate(text, pool)


# -- crash and hang capture ---------------------------------------------------------

class Hang(BaseException):
    """Raised by the per-document timer: a BaseException so that no
    ``except Exception`` in servelint can mistake it for a rule's failure."""


class Crash(Exception):
    """An oracle said no: a wrong answer rather than an exception."""


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def _on_alarm(signum, frame):
    raise Hang()


# -- the targets -------------------------------------------------------------------

_SETTINGS = [Settings(vllm_version=v, target=t, use_installed_vllm=False)
             for v in (None, knowledge.RELEASES[0], "0.28.0", knowledge.NEWEST) for t in ("cuda", "cpu", "rocm")]
_NAMES = {"shell": ["run.sh", "serve.bash", "job.sbatch"], "yaml": ["deploy.yaml", "compose.yml", "values.yaml", "cfg.yaml"],
          "dockerfile": ["Dockerfile", "Dockerfile.vllm"]}
_MESSAGES = ["unrecognized arguments: --max-modl-len", "--use-replayssm is only supported for Nemotron-H models (got architecture 'X')",
             "a" * 40 + "!", "x" * 200, "", "é😀", "ValueError: max_model_len (32768) is greater than the derived max_model_len"]


def _no_internal(doc) -> None:
    for p in list(doc.problems) + [p for launch in doc.launches for p in launch.problems]:
        if any(m in p.message for m in INTERNAL_MARKERS):
            raise Crash(f"internal problem reported: {p.message}")


def _check_result(result, text: str) -> None:
    sources = dict(result.sources)
    sources[result.path] = result.source

    def source_of(p: str) -> SourceText:
        return sources.get(p) or SourceText("")

    seen = set()
    for d in result.diagnostics:
        if d.code == "SL000" or any(m in d.message for m in INTERNAL_MARKERS):
            raise Crash(f"{d.code}: {d.message}")
        key = (d.path, d.span, d.code, d.message)
        if key in seen:
            raise Crash(f"the same diagnostic twice ({d.code})")
        seen.add(key)
        n = len(source_of(d.path).text)
        if not 0 <= d.span.start <= d.span.end <= n:
            raise Crash(f"{d.code} span {d.span} outside {n}")
        for fx in d.fixes:
            for e in fx.edits:
                if not 0 <= e.span.start <= e.span.end <= len(source_of(e.path).text):
                    raise Crash(f"{d.code} fix {fx.title!r} edit {e} outside its file")
    for write in WRITERS.values():
        write(io.StringIO(), result.diagnostics, source_of)


# Between the texts of one input of the incremental targets (before, after edits).
EDITED_SEPARATOR = "\n\x1e--- edited to ---\x1e\n"


def _settings(meta: dict) -> Settings:
    return Settings(vllm_version=meta.get("vllm_version"), target=meta.get("platform", "cuda"), use_installed_vllm=False)


def _view(result) -> list:
    return [(d.path, d.span, d.code, d.message, d.severity, tuple(f.title for f in d.fixes)) for d in result.diagnostics]


# Each check takes the input text and what else it needs to repeat the case
# exactly (``meta``: a file name, settings...), and raises on a finding.  The
# run and ``replay`` (a saved input, in tests/fuzz/test_regressions.py) share them.

def check_shell(text: str, meta: dict) -> None:
    doc = parse_shell_document("x.sh", text)
    check_spans(doc, text)
    _no_internal(doc)


def check_shell_incremental(text: str, meta: dict) -> None:
    before, edited = text.split(EDITED_SEPARATOR)
    inc = parse_document("run.sh", edited, previous=parse_document("run.sh", before))
    if dump_document(inc, edited) != dump_document(parse_document("run.sh", edited), edited):
        raise Crash("incremental parse differs from a full parse")


def check_yaml(text: str, meta: dict) -> None:
    doc = parse_yaml_document(meta.get("name", "deploy.yaml"), text)
    check_spans(doc, text)
    _no_internal(doc)


def check_config_yaml(text: str, meta: dict) -> None:
    doc = parse_vllm_config("cfg.yaml", text)
    check_spans(doc, text)
    _no_internal(doc)


def check_dockerfile(text: str, meta: dict) -> None:
    check_spans(parse_dockerfile_document("Dockerfile", text), text)


def check_example_fix(text: str, meta: dict) -> None:
    _parse_alternatives(text, meta.get("vllm_version") or knowledge.NEWEST)


@functools.lru_cache(maxsize=None)
def _workdir(what: str) -> str:
    return tempfile.mkdtemp(prefix=f"servelint-fuzz-{what}-")


def check_records(text: str, meta: dict) -> None:
    path = Path(_workdir("records")) / "user.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    store = RecordStore()
    store._load_file(str(path), "user")
    for p in store.problems:
        str(p)
    for m in meta.get("messages", _MESSAGES[:2]):
        store.match(m)


# The engine's documents live in an empty directory: a --config they name is missing.


def check_engine(text: str, meta: dict) -> None:
    from servelint.lsp import convert

    settings = _settings(meta)
    name = str(Path(_workdir("engine")) / meta["name"])
    result = Engine(settings).lint(name, text)
    _check_result(result, text)
    sources = dict(result.sources)
    sources[result.path] = result.source
    for d in result.diagnostics:
        convert.to_lsp(d, lambda p: sources.get(p) or SourceText(""), lambda p: 1)
    if meta.get("apply_fix"):
        for d in result.diagnostics:
            for fx in d.fixes:
                if all(e.path == name for e in fx.edits):
                    fixed = apply_edits(text, fx.edits)
                    _check_result(Engine(settings).lint(name, fixed), fixed)
                    return


def check_engine_incremental(text: str, meta: dict) -> None:
    """An engine that linted the text before each edit says what a fresh
    engine says about the text after the last."""
    settings = _settings(meta)
    texts = text.split(EDITED_SEPARATOR)
    name = str(Path(_workdir("engine")) / meta["name"])
    eng = Engine(settings)
    for t in texts:
        got = eng.lint(name, t)
    fresh = _view(Engine(settings).lint(name, texts[-1]))
    mine = _view(got)
    if mine != fresh:
        only_inc = sorted({v[2] for v in mine if v not in fresh})
        only_fresh = sorted({v[2] for v in fresh if v not in mine})
        raise Crash(f"the incremental engine differs from a fresh lint ({meta.get('kind')}; incremental only "
                    f"{only_inc or '-'}, fresh only {only_fresh or '-'})")
    _check_result(got, texts[-1])


CHECKS = {
    "shell": check_shell, "shell-incremental": check_shell_incremental, "yaml": check_yaml,
    "config-yaml": check_config_yaml, "dockerfile": check_dockerfile, "exampleFix": check_example_fix,
    "records": check_records, "engine": check_engine, "engine-incremental": check_engine_incremental,
}


def replay(path: str | Path) -> None:
    """Run a saved input (``<target>-<kind>-<digest>.txt`` and its ``.json``)
    through its target's check again; raises what the run found, if it still does."""
    path = Path(path)
    meta = json.loads(path.with_suffix(".json").read_text())
    text = path.read_text(encoding="utf-8", errors="surrogatepass")
    os.environ["SERVELINT_STRICT"] = "1"
    engine_mod._LOGGED.clear()
    errors = _Errors()
    logger = logging.getLogger("servelint")
    logger.addHandler(errors)
    try:
        CHECKS[meta["target"]](text, meta)
    finally:
        logger.removeHandler(errors)
    if errors.records:
        raise Crash("servelint logged: " + errors.records[0].getMessage())


class Targets:
    """Makes each target's next input: (text, meta) for its check."""

    def __init__(self, rng: random.Random, mutator: Mutator) -> None:
        self.rng = rng
        self.mut = mutator

    def _edit(self, text: str) -> str:
        at = self.rng.randrange(len(text) + 1)
        return text[:at] + self.rng.choice(self.mut.tokens) + text[at + self.rng.randrange(0, 6):]

    def _engine_meta(self, kind: str) -> dict:
        settings = self.rng.choice(_SETTINGS)
        return {"kind": kind, "name": self.rng.choice(_NAMES[kind]), "vllm_version": settings.vllm_version,
                "platform": settings.target}

    def make(self, target: str) -> tuple[str, dict]:
        rng, mut = self.rng, self.mut
        if target == "shell-incremental":
            text = mut.document("shell")
            edited = mut.mutate(text, mut.corpus["shell"]) if rng.random() < 0.3 else self._edit(text)
            return text + EDITED_SEPARATOR + edited, {}
        if target == "yaml":
            return mut.document("yaml"), {"name": rng.choice(_NAMES["yaml"])}
        if target == "exampleFix":
            return mut.document("exampleFix"), {"vllm_version": rng.choice(knowledge.RELEASES)}
        if target == "records":
            return mut.document("records"), {"messages": rng.sample(_MESSAGES, 2)}
        if target == "engine":
            kind = rng.choice(["shell", "shell", "yaml", "yaml", "dockerfile"])
            meta = self._engine_meta(kind)
            meta["apply_fix"] = rng.random() < 0.25
            return mut.document(kind), meta
        if target == "engine-incremental":
            kind = rng.choice(["shell", "shell", "yaml", "dockerfile"])
            texts = [mut.document(kind)]
            for _ in range(rng.randrange(1, 4)):
                texts.append(self._edit(texts[-1]))
            return EDITED_SEPARATOR.join(texts), self._engine_meta(kind)
        return mut.document(target), {}


# -- the run ----------------------------------------------------------------------

class Run:
    def __init__(self, args) -> None:
        self.args = args
        self.docs: Counter = Counter()
        self.crashes: Counter = Counter()
        self.hangs: Counter = Counter()
        self.wrong: Counter = Counter()
        self.signatures: dict[str, int] = {}
        self.slowest: dict[str, float] = defaultdict(float)
        self.seconds: dict[str, float] = defaultdict(float)
        self.started = time.time()
        self.current: tuple[str, str] | None = None
        self.current_since = 0.0
        self.lsp: dict | None = None

    def save(self, target: str, text: str, meta: dict, kind: str, detail: str, sig: str) -> str:
        """The input (.txt), how to repeat it (.json: ``replay`` reads it) and what happened (.err)."""
        out = Path(self.args.crashers)
        out.mkdir(parents=True, exist_ok=True)
        digest = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]
        path = out / f"{target}-{kind}-{digest}.txt"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        path.with_suffix(".json").write_text(json.dumps({"target": target, "found": sig, "seed": self.args.seed, **meta},
                                                        indent=1) + "\n")
        path.with_suffix(".err").write_text(detail)
        return str(path)

    def failure(self, target: str, text: str, meta: dict, kind: str, detail: str, sig: str) -> None:
        {"hang": self.hangs, "wrong": self.wrong}.get(kind, self.crashes)[target] += 1
        seen = self.signatures.get(sig, 0)
        self.signatures[sig] = seen + 1
        if seen < 3:
            where = self.save(target, text, meta, kind, detail, sig)
            print(f"!! {kind} in {target}: {sig}\n   saved {where}", flush=True)

    def watchdog(self) -> None:
        """Last resort for a hang the timer cannot interrupt (a C loop that
        never returns to Python): save the input and stop the run."""
        while True:
            time.sleep(1)
            cur = self.current
            if cur and time.perf_counter() - self.current_since > 3 * self.args.hang_s:
                where = self.save(cur[0], cur[1], cur[2], "hang", "stuck in C code: the timer could not interrupt it",
                                  f"{cur[0]}: hang")
                print(f"!! unrecoverable hang in {cur[0]}; saved {where}", flush=True)
                self.hangs[cur[0]] += 1
                self.write_report(final=True, note="stopped by the watchdog")
                os._exit(3)

    def one(self, target: str, text: str, meta: dict) -> None:
        engine_mod._LOGGED.clear()
        errors = _Errors()
        logger = logging.getLogger("servelint")
        logger.addHandler(errors)
        self.current = (target, text, meta)
        self.current_since = t0 = time.perf_counter()
        signal.setitimer(signal.ITIMER_REAL, self.args.hang_s)
        try:
            CHECKS[target](text, meta)
            signal.setitimer(signal.ITIMER_REAL, 0)
            if errors.records:
                r = errors.records[0]
                detail = "\n".join(errors.format(r) for r in errors.records)
                sig = f"{target}: logged {r.getMessage()[:80]}"
                self.failure(target, text, meta, "crash", detail, sig)
        except Hang:
            self.failure(target, text, meta, "hang", f"over {self.args.hang_s}s", f"{target}: hang")
        except Exception as exc:  # noqa: BLE001 - every exception is the finding
            signal.setitimer(signal.ITIMER_REAL, 0)
            tb = traceback.extract_tb(exc.__traceback__)
            frame = next((f for f in reversed(tb) if "servelint" in f.filename), tb[-1] if tb else None)
            where = f"{Path(frame.filename).name}:{frame.lineno}" if frame else "?"
            detail = traceback.format_exc()
            if isinstance(exc, Crash):
                self.failure(target, text, meta, "wrong", detail, f"{target}: {exc}")
            else:
                self.failure(target, text, meta, "crash", detail,
                             f"{target}: {type(exc).__name__} at {where}: {str(exc)[:60]}")
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            logger.removeHandler(errors)
            self.current = None
        took = time.perf_counter() - t0
        self.docs[target] += 1
        self.seconds[target] += took
        if took > self.slowest[target]:
            self.slowest[target] = took

    def write_report(self, final: bool = False, note: str = "") -> None:
        a = self.args
        wall = time.time() - self.started
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        total = sum(self.docs.values())
        lines = [
            "# The long fuzz run", "",
            "Written by `tests/fuzz/longrun.py` (see its docstring for the targets and",
            "their oracles); reproduce with `make fuzz` or the command below.", "",
            f"* status: {'finished' if final else 'running'}{' (' + note + ')' if note else ''}",
            f"* command: `{a.command}`",
            f"* seed: {a.seed}; hang limit {a.hang_s:g} s per document; one process"
            f" at nice {os.nice(0)}; Python {platform.python_version()}, {os.cpu_count()} CPUs",
            f"* servelint commit: {a.commit}",
            f"* documents: **{total:,}** in {wall / 60:.1f} min wall; peak RSS {peak_mb:.0f} MB",
            f"* crashes: **{sum(self.crashes.values())}**; hangs: **{sum(self.hangs.values())}**; "
            f"wrong answers: **{sum(self.wrong.values())}**", "",
            "A crash is an exception or an error servelint logged; a wrong answer is an oracle's",
            "no (a span outside the text, an SL000, the same diagnostic twice, an incremental",
            "result that differs from a fresh one).", "",
            "| target | documents | crashes | hangs | wrong answers | slowest document (s) | mean (ms) |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for t in a.targets:
            n = self.docs[t]
            mean = 1000 * self.seconds[t] / n if n else 0
            lines.append(f"| {t} | {n:,} | {self.crashes[t]} | {self.hangs[t]} | {self.wrong[t]} | "
                         f"{self.slowest[t]:.3f} | {mean:.2f} |")
        if self.lsp is not None:
            lsp = self.lsp
            lines.append(f"| lsp-edits (didChange events in {lsp['sequences']} sequences over stdio; failing "
                         f"sequences under wrong answers) | {lsp['documents']:,} | - | - | {lsp['failed']} | - | - |")
        if self.signatures:
            lines += ["", "Distinct failures (inputs saved under `" + a.crashers + "`):", ""]
            lines += [f"* {sig} (×{n})" for sig, n in sorted(self.signatures.items())]
        Path(a.report).write_text("\n".join(lines) + "\n")

    def main(self) -> int:
        a = self.args
        rng = random.Random(a.seed)
        corpus = load_corpus()
        targets = Targets(rng, Mutator(rng, corpus))
        signal.signal(signal.SIGALRM, _on_alarm)
        threading.Thread(target=self.watchdog, daemon=True).start()
        total_w = sum(a.weights[t] for t in a.targets)
        quota = {t: a.documents * a.weights[t] // total_w for t in a.targets}
        quota[a.targets[0]] += a.documents - sum(quota.values())
        order = [t for t in a.targets for _ in range(a.weights[t])]
        last = time.time()
        while True:
            progressed = False
            for t in order:
                if self.docs[t] >= quota[t]:
                    continue
                progressed = True
                text, meta = targets.make(t)
                self.one(t, text, meta)
            if not progressed:
                break
            if time.time() - last > a.progress_s:
                last = time.time()
                done = sum(self.docs.values())
                rate = done / (last - self.started)
                print(f"{done:,}/{a.documents:,} documents, {rate:.0f}/s, {sum(self.crashes.values())} crashes, "
                      f"{sum(self.hangs.values())} hangs, {sum(self.wrong.values())} wrong", flush=True)
                self.write_report()
        if a.lsp_documents:
            self.write_report()
            self.lsp = run_lsp_sequences(a)
        self.write_report(final=True)
        print(Path(a.report).read_text())
        failed = (sum(self.crashes.values()) + sum(self.hangs.values()) + sum(self.wrong.values())
                  + (self.lsp or {}).get("failed", 0))
        return 1 if failed else 0


def run_lsp_sequences(a) -> dict:
    """The edit-sequence fuzz of test_fuzz_lsp.py in its long form: both
    clients (VS Code, Neovim), about ``--lsp-documents`` documents each, 60
    random didChange events a document, against a real server over stdio."""
    stats = Path(a.crashers) / "lsp-stats.json"
    stats.parent.mkdir(parents=True, exist_ok=True)
    scale = -(-a.lsp_documents * 100 // 40)  # test_fuzz_lsp: DOCUMENTS = 40 * SCALE // 100
    env = {**os.environ, "SERVELINT_FUZZ_LONG": "1", "SERVELINT_FUZZ_SCALE": str(scale),
           "SERVELINT_FUZZ_SEED": str(a.seed), "SERVELINT_FUZZ_STATS": str(stats),
           "SERVELINT_FUZZ_FOUND": str(a.crashers)}
    env.pop("SERVELINT_STRICT", None)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(HERE / "test_fuzz_lsp.py"), "-k", "random_edit_sequences"], env=env, cwd=ROOT)
    counts = json.loads(stats.read_text())["targets"] if stats.exists() else {}

    def count(name: str) -> int:
        return counts.get(name, {}).get("documents", 0)

    failed = count("lsp-sequences-failed")
    return {"documents": count("lsp-edits"), "sequences": count("lsp-sequences"),
            "failed": failed if failed or proc.returncode == 0 else 1}


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--documents", type=int, default=1_010_000, help="documents across the in-process targets")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--hang-s", type=float, default=10.0, help="one document taking longer is a hang")
    p.add_argument("--targets", default=",".join(DEFAULT_WEIGHTS), help="comma-separated targets")
    p.add_argument("--weights", dest="weights_raw", default="", help="e.g. engine=10,shell=30 (defaults: %s)" % DEFAULT_WEIGHTS)
    p.add_argument("--lsp-documents", type=int, default=0, help="LSP edit sequences per client, run after the rest")
    p.add_argument("--crashers", default=str(HERE / "found"), help="where found inputs are saved "
                   "(copy one with its .json into tests/fuzz/regressions/ to make it a test)")
    p.add_argument("--report", default=str(HERE / "LONGRUN.md"))
    p.add_argument("--progress-s", type=float, default=60.0)
    p.add_argument("--commit", default="", help="the servelint commit under test, for the report (default: git's)")
    a = p.parse_args(argv)
    a.targets = [t for t in a.targets.split(",") if t]
    a.weights = dict(DEFAULT_WEIGHTS)
    for item in filter(None, a.weights_raw.split(",")):
        k, v = item.split("=")
        a.weights[k] = int(v)
    for t in a.targets:
        if t not in a.weights:
            p.error(f"unknown target {t}")
    return a


def main(argv=None) -> int:
    a = parse_args(argv)
    a.command = " ".join(["python", "tests/fuzz/longrun.py", *(argv or sys.argv[1:])])
    if not a.commit:
        try:
            a.commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                      text=True).stdout.strip() or "?"
            if subprocess.run(["git", "diff", "--quiet", "HEAD", "--", "server"], cwd=ROOT).returncode:
                a.commit += " plus uncommitted changes under server/"
        except OSError:
            a.commit = "?"
    return Run(a).main()


if __name__ == "__main__":
    sys.exit(main())
