"""Shared pieces of the fuzz targets: scale, statistics, document generators.

The CI slice runs each target with a few dozen examples (derandomized, so a
failure in CI is reproducible); ``SERVELINT_FUZZ_LONG=1`` (``make fuzz``)
multiplies the counts and draws fresh random examples.  Every target counts
the documents it fed to servelint and the slowest one; ``conftest.py``
prints the totals and writes them to ``$SERVELINT_FUZZ_STATS`` (JSON) if set.
"""

from __future__ import annotations

import logging
import os
import time
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

LONG = os.environ.get("SERVELINT_FUZZ_LONG") == "1"
# Long-run scale: SERVELINT_FUZZ_SCALE multiplies every target's count.
SCALE = int(os.environ.get("SERVELINT_FUZZ_SCALE", "1000" if LONG else "1"))
# One document taking this long counts as a hang.  It is far above the time
# any document needs (milliseconds) so that a loaded CI machine never trips
# it, and far below "the editor froze".
HANG_S = float(os.environ.get("SERVELINT_FUZZ_HANG_S", "20"))

ROOT = Path(__file__).resolve().parents[2]
FORMS = ROOT / "tests" / "forms"


class Stats:
    def __init__(self) -> None:
        self.documents: dict[str, int] = defaultdict(int)
        self.slowest: dict[str, float] = defaultdict(float)
        self.wall: dict[str, float] = defaultdict(float)

    def as_dict(self) -> dict:
        return {
            t: {"documents": self.documents[t], "slowest_s": round(self.slowest[t], 4),
                "seconds": round(self.wall[t], 1)}
            for t in sorted(self.documents)
        }


STATS = Stats()


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextmanager
def document(target: str):
    """One fuzzed document: counted, timed, and failed if it took a hang's
    time or if servelint logged an error (an exception it caught and
    reported politely is still a crash to fix)."""
    from servelint.engine import pipeline as engine

    engine._LOGGED.clear()  # a repeated failure must be seen again
    errors = _Errors()
    logger = logging.getLogger("servelint")
    logger.addHandler(errors)
    started = time.perf_counter()
    try:
        yield
    finally:
        logger.removeHandler(errors)
    took = time.perf_counter() - started
    STATS.documents[target] += 1
    STATS.wall[target] += took
    STATS.slowest[target] = max(STATS.slowest[target], took)
    assert took < HANG_S, f"{target}: one document took {took:.1f}s (hang limit {HANG_S}s)"
    assert not errors.records, "servelint logged: " + "\n".join(
        errors.format(r) if r.exc_info else r.getMessage() for r in errors.records)


# Each generated document is also fed as this many half-typed states of
# itself (a prefix, or a character dropped): what an editor sends while the
# user types, and far cheaper to make than a new hypothesis example.
VARIANTS = int(os.environ.get("SERVELINT_FUZZ_VARIANTS", "20" if LONG else "2"))


def half_typed(text: str, rnd, n: int = VARIANTS) -> list[str]:
    out = [text]
    for _ in range(n):
        at = rnd.randrange(len(text) + 1)
        out.append(text[:at] if rnd.random() < 0.6 else text[:at] + text[at + 1:])
    return out


def fuzz_settings(ci: int, long: int | None = None):
    """Hypothesis settings: ``ci`` examples in the test command, ``long`` (default
    ``ci`` × SCALE) under ``make fuzz``."""
    n = (long if long is not None else ci * SCALE) if LONG else ci
    return settings(
        max_examples=n,
        deadline=None,
        derandomize=not LONG,
        database=None,
        # Shrinking a long-run failure is worth the time; the CI slice has no failures to shrink.
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                               HealthCheck.filter_too_much, HealthCheck.function_scoped_fixture],
    )


@contextmanager
def strict_parsers():
    """Parsers re-raise instead of returning an empty result, so a parser bug
    is a failure here rather than a silently empty document."""
    old = os.environ.get("SERVELINT_STRICT")
    os.environ["SERVELINT_STRICT"] = "1"
    try:
        yield
    finally:
        if old is None:
            del os.environ["SERVELINT_STRICT"]
        else:
            os.environ["SERVELINT_STRICT"] = old


# -- what documents are made of ----------------------------------------------------

def _knowledge():
    from servelint import knowledge

    return knowledge


def flag_strings() -> list[str]:
    """Every spelling of every flag of the oldest and newest release (hidden
    aliases and negatives included), plus near misses."""
    kn = _knowledge()
    out: set[str] = set()
    for version in (kn.RELEASES[0], kn.NEWEST):
        for opt in kn.load(version).options:
            out.update(s for s in opt.strings if s.startswith("-"))
            out.update(opt.negative or ())
    return sorted(out)


def _choices() -> list[str]:
    kn = _knowledge()
    out: set[str] = set()
    for opt in kn.load(kn.NEWEST).options:
        for c in (opt.choices or []) + (opt.metavar_choices or []):
            out.add(str(c))
    return sorted(out)


FLAGS = flag_strings()
CHOICES = _choices()
MODELS = [
    "Qwen/Qwen3-8B", "meta-llama/Llama-3.1-8B-Instruct", "state-spaces/mamba-2.7b",
    "nvidia/Nemotron-H-8B-Base-8K", "deepseek-ai/DeepSeek-V3", "mistralai/Mistral-7B-Instruct-v0.3",
    "facebook/opt-125m", "./local-model", "/models/x", "$MODEL", "${MODEL:-Qwen/Qwen3-8B}", "",
    "Qwen/Qwen3-30B-A3B", "ibm-ai-platform/Bamba-9B", "é/模型",
]
VALUES = CHOICES + [
    "0", "1", "2", "-1", "8", "4096", "32768", "1k", "1K", "2M", "1e9", "0.9", "1.5", "nan", "-0",
    "99999999999999999999999", "true", "false", "True", "auto", "none", "",
    '{"method":"eagle","num_speculative_tokens":3}', '{"a":', "{}", "[]", '{"level":3,"cudagraph_mode":"FULL"}',
    '{"mamba_cache_mode":"align"}', '{"model":"x","num_speculative_tokens":"3"}', "null", '{"rope_scaling":{"type":"yarn"}}',
    "name=path", "a=b c=d", "$PORT", "${TP:-2}", "$(nproc)", "`nproc`", "~/x.jinja", "cfg.yaml", "ä",
]
PREFIXES = [
    "vllm serve ", "vllm serve --model ", "python -m vllm.entrypoints.openai.api_server --model ",
    "python3 -m vllm.entrypoints.api_server ", "CUDA_VISIBLE_DEVICES=0 vllm serve ", "exec vllm serve ",
    "docker run --gpus all -p 8000:8000 vllm/vllm-openai:v0.28.0 ", "docker run vllm/vllm-openai ",
    "uv run vllm serve ", "nohup vllm serve ", "srun vllm serve ", "vllm ", "VLLM_USE_V1=0 vllm serve ",
    "bash -c 'vllm serve ", "sudo -E vllm serve ", "vllm serve serve ",
]
SEPARATORS = [" ", " ", " ", "  ", "\t", " \\\n  ", " \\\r\n  ", "=", " \\\n", "\n"]
HEADERS = [
    "", "#!/bin/sh\n", "#!/usr/bin/env bash\nset -euo pipefail\n", "# servelint: vllm=0.28.0\n",
    "pip install vllm==0.27.1\n", "MODEL=Qwen/Qwen3-8B\nPORT=8000\n", "export TP=2\n",
    "# servelint: ignore[unknown-flag] -- test\n", "# servelint: vllm=9.9\n", "\ufeff",
]
JUNK = [
    "'", '"', "\\", "$(", "`", "${", "}", ")", "((", "<<EOF\n", "EOF\n", "<<'X'\n", "|", "&&", ";", "&", "#",
    "\r", "\r\n", "\n", "\x00", "é", "😀", "\u2028", "\t", "{", "[", "]", ":", "- ", "---\n", "*a", "&a ",
    "# servelint: ignore[", "if [ x ]; then ", "fi\n", "for i in 1 2; do ", "done\n", "f() {", "eval ",
]


def _quote(word: str, how: int) -> str:
    if how == 1:
        return "'" + word.replace("'", "'\\''") + "'"
    if how == 2:
        return '"' + word.replace('"', '\\"') + '"'
    if how == 3:
        return "'" + word  # unterminated
    if how == 4:
        return "$'" + word.replace("'", "\\'") + "'"
    return word


@st.composite
def flag_items(draw) -> list[tuple[str, str | None]]:
    items = []
    for _ in range(draw(st.integers(0, 8))):
        flag = draw(st.sampled_from(FLAGS) | st.sampled_from(FLAGS).map(lambda f: f[:-2] if len(f) > 4 else f)
                    | st.sampled_from(["--max-modl-len", "--bogus", "-tp", "--", "-", "--config", "--enable-prefix-cachin"]))
        value = draw(st.none() | st.sampled_from(VALUES) | st.text(max_size=6))
        items.append((flag, value))
    return items


@st.composite
def shell_launch(draw) -> str:
    parts = [draw(st.sampled_from(PREFIXES)), _quote(draw(st.sampled_from(MODELS)), draw(st.integers(0, 4)))]
    for flag, value in draw(flag_items()):
        parts.append(draw(st.sampled_from(SEPARATORS[:6])))
        parts.append(flag)
        if value is not None:
            parts.append(draw(st.sampled_from(SEPARATORS)))
            parts.append(_quote(value, draw(st.integers(0, 4))))
    tail = draw(st.sampled_from(["\n", " &\n", "", "'\n", " | tee log\n", " \\\n"]))
    return "".join(parts) + tail


@st.composite
def shell_document(draw) -> str:
    chunks = [draw(st.sampled_from(HEADERS))]
    for _ in range(draw(st.integers(1, 4))):
        chunks.append(draw(shell_launch() | st.sampled_from(JUNK) | st.text(max_size=8)))
    return "".join(chunks)


def _yaml_scalar(value: str | None, how: int) -> str:
    if value is None:
        return "true"
    if how == 1:
        return "'" + value.replace("'", "''") + "'"
    if how == 2:
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return value or '""'


@st.composite
def yaml_document(draw) -> str:
    """A --config file, a Kubernetes container, a compose service, a
    GitHub Actions step or a SkyPilot task, with real flags."""
    items = draw(flag_items())
    model = draw(st.sampled_from(MODELS))
    how = draw(st.integers(0, 2))
    form = draw(st.integers(0, 5))
    if form == 0:  # --config file
        lines = [f"model: {_yaml_scalar(model, how)}"]
        for flag, value in items:
            lines.append(f"{flag.lstrip('-')}: {_yaml_scalar(value, how)}")
        text = "\n".join(lines) + "\n"
    elif form == 1:  # Kubernetes args list
        args = ", ".join(_yaml_scalar(w, 2) for f, v in items for w in ([f] if v is None else [f, v]))
        text = (
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: v}\nspec:\n  template:\n    spec:\n"
            "      containers:\n      - name: vllm\n        image: vllm/vllm-openai:v0.28.0\n"
            f"        command: [vllm, serve]\n        args: [{_yaml_scalar(model, 2)}, {args}]\n"
            "        env:\n        - {name: TP, value: \"2\"}\n"
        )
    elif form == 2:  # compose, string command
        cmd = " ".join([model] + [w for f, v in items for w in ([f] if v is None else [f, v])])
        text = f"services:\n  vllm:\n    image: vllm/vllm-openai:latest\n    command: {_yaml_scalar(cmd, how)}\n"
    elif form == 3:  # GitHub Actions run block
        run = draw(shell_launch())
        text = "on: push\njobs:\n  serve:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n" + "".join(
            f"          {line}\n" for line in run.splitlines()
        )
    elif form == 4:  # SkyPilot
        run = draw(shell_launch())
        text = "resources:\n  accelerators: A100:1\nrun: |\n" + "".join(f"  {line}\n" for line in run.splitlines())
    else:  # compose, list command with anchors
        words = [model] + [w for f, v in items for w in ([f] if v is None else [f, v])]
        text = ("x-args: &args\n  - " + _yaml_scalar("--port", 0) + "\n  - '8000'\nservices:\n  s:\n"
                "    image: vllm/vllm-openai:v0.30.0\n    command: [" + ", ".join(_yaml_scalar(w, 2) for w in words) + "]\n")
    return text


@st.composite
def dockerfile_document(draw) -> str:
    items = draw(flag_items())
    words = [draw(st.sampled_from(MODELS))] + [w for f, v in items for w in ([f] if v is None else [f, v])]
    exec_form = '["' + '", "'.join(w.replace("\\", "\\\\").replace('"', '\\"') for w in words) + '"]'
    shell_form = " ".join(words)
    return draw(st.sampled_from([
        f"FROM vllm/vllm-openai:v0.29.0\nCMD {exec_form}\n",
        f"FROM vllm/vllm-openai:v0.29.0\nENTRYPOINT [\"vllm\", \"serve\"]\nCMD {exec_form}\n",
        f"FROM python:3.12\nRUN pip install vllm==0.27.1\nENV TP=2\nCMD vllm serve {shell_form}\n",
        f"# escape=`\nFROM vllm/vllm-openai\nCMD {shell_form} `\n  --port 1\n",
        f"FROM vllm/vllm-openai AS base\nENTRYPOINT {exec_form}\n",
    ]))


def seed_files(*forms: str) -> list[Path]:
    out = []
    for form in forms:
        # Files only: a form may keep a folder of them too (helm/templates).
        out += sorted(p for p in (FORMS / form).iterdir() if p.is_file() and not p.name.endswith(".json"))
    return out


@st.composite
def mutated(draw, base: st.SearchStrategy[str]) -> str:
    """A document as an editor sees it while someone types: cut, pasted into,
    or stopped half way."""
    text = draw(base)
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.integers(0, 3))
        if kind == 0:
            text = text[:at] + draw(st.sampled_from(JUNK) | st.text(max_size=4)) + text[at:]
        elif kind == 1:
            text = text[:at] + text[at + draw(st.integers(1, 12)):]
        elif kind == 2:
            text = text[:at]  # half typed
        else:
            text = text[:at] + draw(st.sampled_from(FLAGS)) + " " + text[at:]
    return text


def any_document() -> st.SearchStrategy[tuple[str, str]]:
    """(file name, text) over every form servelint reads."""
    return st.one_of(
        mutated(shell_document()).map(lambda t: ("run.sh", t)),
        mutated(yaml_document()).map(lambda t: ("deploy.yaml", t)),
        mutated(dockerfile_document()).map(lambda t: ("Dockerfile", t)),
    )


def check_spans(doc, text: str) -> None:
    """Every span a parser returns lies inside the document."""
    n = len(text)
    for launch in doc.launches:
        for s in [launch.span, launch.entry_span] + [p.span for p in launch.problems]:
            assert 0 <= s.start <= s.end <= n, (s, n)
        for w in list(launch.args) + list(getattr(launch, "opaque", [])):
            if getattr(w, "path", None) not in (None, doc.path):
                continue
            assert 0 <= w.span.start <= w.span.end <= n, (w, n)
            if w.offsets is not None:
                offs = list(w.offsets)
                assert all(0 <= o <= n for o in offs), (w, n)
                assert all(a <= b for a, b in zip(offs, offs[1:])), w
    for p in doc.problems:
        assert 0 <= p.span.start <= p.span.end <= n, (p, n)


# What servelint says when it caught its own exception: in a fuzz run each
# of these is a crash, however politely it was reported.
INTERNAL_MARKERS = ("internal error", "could not read this YAML document", "failed on this launch")


def assert_no_internal_problem(doc) -> None:
    for p in list(doc.problems) + [p for launch in doc.launches for p in launch.problems]:
        assert not any(m in p.message for m in INTERNAL_MARKERS), p
