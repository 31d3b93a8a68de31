"""Shared by test_conformance.py and the agreement report: load the cases,
vLLM's verdicts and the known disagreements; lint a case with servelint; and
compare servelint's answer with vLLM's.

    python tests/conformance/conformance_harness.py            # agreement report
    python tests/conformance/conformance_harness.py --all      # ... ignoring DISAGREEMENTS.md
    python tests/conformance/conformance_harness.py --rows     # disagreements as DISAGREEMENTS.md rows
    python tests/conformance/conformance_harness.py --releases # the every-minor suite (releases/)
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
if str(REPO / "server") not in sys.path:
    sys.path.insert(0, str(REPO / "server"))

from servelint.diagnostics import Severity  # noqa: E402
from servelint.engine import Engine  # noqa: E402
from servelint.records import RecordStore  # noqa: E402
from servelint.settings import Settings  # noqa: E402


# -- inputs --------------------------------------------------------------------


# How each entry point is written in the one-line script of a case.
ENTRY_COMMANDS = {
    "serve": "vllm serve",
    "api_server": "python -m vllm.entrypoints.openai.api_server",
}


@dataclass(frozen=True)
class Case:
    id: str
    theme: str
    argv: tuple[str, ...]
    env: tuple[tuple[str, str], ...] = ()
    entry: str = "serve"

    def script(self) -> str:
        """The case as the one-line shell script a user would write."""
        env = "".join(f"{k}={shlex.quote(v)} " for k, v in self.env)
        return env + ENTRY_COMMANDS[self.entry] + " " + " ".join(shlex.quote(a) for a in self.argv) + "\n"


def load_cases(suite: Path = HERE) -> dict[str, Case]:
    """Every case of a suite (``suite/cases/*.json``), by id."""
    cases: dict[str, Case] = {}
    for path in sorted((suite / "cases").glob("*.json")):
        for cid, raw in json.loads(path.read_text())["cases"].items():
            raw = raw if isinstance(raw, dict) else {"argv": raw}
            cases[cid] = Case(cid, path.stem, tuple(raw["argv"]), tuple(sorted((raw.get("env") or {}).items())),
                              raw.get("entry", "serve"))
    return cases


def load_verdicts(suite: Path = HERE) -> dict[str, dict[str, dict]]:
    """release -> case id -> vLLM's verdict (from run_oracle.py)."""
    out = {}
    for path in sorted((suite / "verdicts").glob("*.json"), key=lambda p: _version_key(p.stem)):
        out[path.stem] = json.loads(path.read_text())["cases"]
    return out


def _version_key(v: str) -> tuple[int, ...]:
    # "0.6.3.post1" -> (0, 6, 3, 1)
    return tuple(int(x) for x in re.findall(r"\d+", v))


@dataclass(frozen=True)
class Known:
    case: str
    releases: str  # "all", "0.28.0, 0.29.0", ">=0.28.0", "<=0.27.1", "0.25.0-0.27.1"
    why: str
    line: int

    def covers(self, release: str) -> bool:
        spec = self.releases.strip()
        if spec == "all":
            return True
        r = _version_key(release)
        for part in (p.strip() for p in spec.split(",")):
            if part.startswith(">=") and r >= _version_key(part[2:]):
                return True
            if part.startswith("<=") and r <= _version_key(part[2:]):
                return True
            if re.fullmatch(r"[\w.]+-[\w.]+", part):
                lo, hi = part.split("-")
                if _version_key(lo) <= r <= _version_key(hi):
                    return True
            if part == release:
                return True
        return False


_ROW = re.compile(r"^\|\s*`([^`]+)`\s*\|([^|]+)\|(.+)\|\s*$")


def load_known(suite: Path = HERE) -> list[Known]:
    """The rows of DISAGREEMENTS.md's tables: | `case id` | releases | why |."""
    known = []
    for n, line in enumerate((suite / "DISAGREEMENTS.md").read_text().splitlines(), 1):
        m = _ROW.match(line)
        if m:
            why = m.group(3).strip()
            if not why:
                raise ValueError(f"DISAGREEMENTS.md:{n}: a known disagreement needs its reason")
            known.append(Known(m.group(1), m.group(2).strip(), why, n))
    return known


# -- servelint's side ----------------------------------------------------------


def prepare_workdir(root: Path) -> Path:
    """A directory like a user's: the model directories and the --config
    files next to the scripts, so relative paths resolve as they do for vLLM
    (run_oracle.py runs vLLM from tests/conformance, where configs/ is)."""
    for model in (HERE / "models").iterdir():
        if model.is_dir():
            shutil.copytree(model, root / model.name, dirs_exist_ok=True)
    shutil.copytree(HERE / "configs", root / "configs", dirs_exist_ok=True)
    return root


_engines: dict[str, Engine] = {}


def engine_for(release: str) -> Engine:
    """One engine per release, reused across cases.  Error records are left
    out: they only attach a record id to a diagnostic (engine.py
    ``_to_diagnostic``), never add one or change its severity, and matching
    their untrusted patterns is most of the lint time."""
    eng = _engines.get(release)
    if eng is None:
        eng = _engines[release] = Engine(Settings(vllm_version=release, use_installed_vllm=False), records=RecordStore())
    return eng


@dataclass
class Answer:
    release_used: str | None
    errors: list  # servelint diagnostics of severity error
    texts: dict[str, str]  # path -> text, to read what a diagnostic points at

    def spans(self) -> list[tuple[object, str]]:
        return [(d, self.texts.get(d.path, "")[d.span.start : d.span.end]) for d in self.errors]


def lint(case: Case, release: str, workdir: Path, index: int) -> Answer:
    path = workdir / f"case-{index:04d}.sh"
    text = case.script()
    path.write_text(text)
    result = engine_for(release).lint(str(path), text)
    used = result.launches[0].release.version if result.launches else None
    errors = [d for d in result.diagnostics if d.severity == Severity.ERROR]
    texts = {p: s.text for p, s in result.sources.items()}
    return Answer(used, errors, texts)


# -- comparing -----------------------------------------------------------------

# argparse messages that name the option (or word) they are about; the
# conformance test wants servelint's error on that same flag.
_UNRECOGNIZED = re.compile(r"unrecognized arguments: (\S+)")
_AMBIGUOUS = re.compile(r"ambiguous option: ([^\s=]+)\S* could match")
_ARGUMENT = re.compile(r"argument (\S+?): ")


def vllm_flag(verdict: dict) -> tuple[str, set[str]] | None:
    """(kind, names) for a parse-level argparse error, else None."""
    if verdict.get("verdict") != "error" or verdict.get("stage") != "parse" or verdict.get("exception") != "SystemExit":
        return None
    msg = verdict.get("message") or ""
    if m := _UNRECOGNIZED.match(msg):
        return "unrecognized", {m.group(1)}
    if m := _AMBIGUOUS.match(msg):
        return "ambiguous", {m.group(1)}
    if m := _ARGUMENT.match(msg):
        return "argument", set(m.group(1).split("/"))
    return None


def _norm(name: str) -> str:
    """A flag as argparse looks it up: ``--max_model_len=1`` -> ``--max-model-len``."""
    name = name.strip().split("=", 1)[0]
    if name.startswith("--"):
        return "--" + name[2:].split(".", 1)[0].replace("_", "-")
    return name


def _names(diag, text: str) -> set[str]:
    """What a servelint diagnostic is about: its flag, and the word under it
    (a YAML key of a --config file is the flag without its dashes)."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]  # a quoted YAML scalar: vLLM sees what is inside
    names = {text, _norm(text)}
    if diag.flag:
        names |= {diag.flag, _norm(diag.flag)}
    if text and not text.startswith("-"):
        names.add(_norm("--" + text))
    return names


def disagreement(case: Case, release: str, verdict: dict | None, answer: Answer) -> str | None:
    """None when servelint agrees with vLLM, else what differs."""
    if verdict is None:
        return "no vLLM verdict (run tests/conformance/run_oracle.py)"
    if answer.release_used != release:
        return f"servelint read the launch as vLLM {answer.release_used}, not {release} (no knowledge of {release}?)"
    errors = answer.spans()
    shown = "; ".join(f"{d.code} on {t!r}: {d.message}" for d, t in errors) or "no error"
    if verdict["verdict"] == "ok":
        return f"vLLM accepts it, servelint reports {shown}" if errors else None
    said = f"{verdict.get('exception')} at {verdict.get('stage')}: {verdict.get('message')}"
    if not errors:
        return f"vLLM rejects it ({said}); servelint reports no error"
    wanted = vllm_flag(verdict)
    if wanted is None:
        return None
    kind, names = wanted
    norm = {_norm(n) for n in names} | names
    if any(_names(d, t) & norm for d, t in errors):
        return None
    return f"vLLM's error is about {'/'.join(sorted(names))} ({said}); servelint's errors are elsewhere: {shown}"


# -- the report ----------------------------------------------------------------


def _report(argv: list[str]) -> int:
    import logging
    import tempfile
    import time

    # A crash inside servelint shows up as a disagreement; its traceback
    # for each of thousands of lints would bury the report.
    logging.disable(logging.CRITICAL)

    # --releases: the every-minor suite (releases/: flag-level cases,
    # verdicts from each release's own entry points).
    suite = HERE / "releases" if "--releases" in argv else HERE
    cases = load_cases(suite)
    verdicts = load_verdicts(suite)
    known = [] if "--all" in argv else load_known(suite)
    rows = "--rows" in argv
    total = agree = listed = 0
    by_release = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = prepare_workdir(Path(tmp))
        started = time.monotonic()
        for release, vs in verdicts.items():
            ok = n = 0
            for i, case in enumerate(cases.values()):
                why = disagreement(case, release, vs.get(case.id), lint(case, release, work, i))
                n += 1
                if why is None:
                    ok += 1
                elif any(k.case == case.id and k.covers(release) for k in known):
                    listed += 1
                elif rows:
                    print(f"| `{case.id}` | {release} | {' '.join(why.split())} |")
            by_release[release] = (ok, n)
            total += n
            agree += ok
        elapsed = time.monotonic() - started
    for release, (ok, n) in by_release.items():
        print(f"{release}: {ok}/{n} agree ({100 * ok / n:.1f}%)", file=sys.stderr)
    print(f"all: {agree}/{total} case x release pairs agree ({100 * agree / max(total, 1):.1f}%); "
          f"{listed} known (DISAGREEMENTS.md), {total - agree - listed} unexplained; {elapsed:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(_report(sys.argv[1:]))
