"""Run servelint's rules on an argv the way vLLM's oracle gets it.

The conformance cases are argv lists (what follows ``vllm serve``) with an
optional environment.  ``lint_argv`` writes them as a one-line shell launch,
reads it with the vLLM release's argv semantics (``servelint.argv``), merges
a ``--config`` YAML as the engine does, and runs every invocation rule, so
the result is what a user would see for that launch, without depending on
the shell parser.

Model names are directories under ``tests/conformance/models/`` (each holds
only a ``config.json``), resolved like any local model directory.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass
from pathlib import Path

from servelint import argv as argv_mod
from servelint import knowledge
from servelint.diagnostics import Severity
from servelint.engine.io import _resolve_model
from servelint.model import Entry, EnvVar, Form, Launch, Word
from servelint.rules import Context, invocation_rules
from servelint.text import Span

HERE = Path(__file__).resolve().parent
MODELS = HERE / "models"


@dataclass
class Result:
    rule: object
    finding: object

    @property
    def severity(self) -> Severity:
        return self.finding.severity or self.rule.severity

    @property
    def is_error(self) -> bool:
        return self.severity == Severity.ERROR


def _word(text: str, start: int, arg: str) -> tuple[Word, str]:
    quoted = shlex.quote(arg)
    if quoted == arg:
        return Word(arg, Span(start, start + len(arg))), quoted
    # shlex.quote single-quotes; the cases hold no single quotes.
    assert "'" not in arg, arg
    offsets = [start + 1 + i for i in range(len(arg) + 1)]
    return Word(arg, Span(start, start + len(quoted)), offsets=offsets), quoted


def build_launch(argv: list[str], env: dict[str, str] | None = None) -> tuple[str, Launch]:
    """A shell launch ``[ENV=..] vllm serve ARGV`` and its text."""
    parts: list[str] = []
    pos = 0
    env_vars: dict[str, EnvVar] = {}
    for name, value in (env or {}).items():
        chunk = f"{name}={shlex.quote(value)}"
        env_vars[name] = EnvVar(name, value, Span(pos, pos + len(chunk)))
        parts.append(chunk)
        pos += len(chunk) + 1
    entry_span = Span(pos, pos + len("vllm serve"))
    parts.append("vllm serve")
    pos = entry_span.end + 1
    words = []
    for arg in argv:
        w, quoted = _word("", pos, arg)
        words.append(w)
        parts.append(quoted)
        pos += len(quoted) + 1
    text = " ".join(parts) + "\n"
    launch = Launch(Form.SHELL, Entry.SERVE, entry_span, words, Span(0, len(text) - 1), env=env_vars)
    return text, launch


def model_path(name: str) -> str:
    return str(MODELS / name)


def resolve_case_argv(argv: list[str], suite_dir: Path) -> list[str]:
    """Model name → our model directory; ``--config`` path → absolute."""
    out = list(argv)
    if out and not out[0].startswith("-") and (MODELS / out[0]).is_dir():
        out[0] = model_path(out[0])
    for i, word in enumerate(out[:-1]):
        if word == "--config":
            out[i + 1] = str((suite_dir / out[i + 1]).resolve())
    return out


def lint_argv(
    argv: list[str],
    version: str,
    *,
    env: dict[str, str] | None = None,
    target: str = "cuda",
    path: str | None = None,
) -> list[Result]:
    """Every finding of every invocation rule for ``vllm serve ARGV``."""
    path = path or str(HERE / "launch.sh")
    text, launch = build_launch(argv, env)
    texts = {path: text}
    kn = knowledge.load(version)
    cfg_launch = None
    for i, w in enumerate(launch.args[:-1]):
        if w.text == "--config":
            from servelint.parse.vllm_config import parse_vllm_config

            cfg_path = launch.args[i + 1].text
            cfg_text = Path(cfg_path).read_text()
            texts[cfg_path] = cfg_text
            parsed = parse_vllm_config(cfg_path, cfg_text)
            cfg_launch = parsed.launches[0] if parsed.launches else None
            if cfg_launch is not None:
                for cw in cfg_launch.args:
                    cw.path = cfg_path
            break
    inv = argv_mod.interpret(
        launch, kn,
        config_words=cfg_launch.args if cfg_launch is not None else None,
        config_launch=cfg_launch,
    )
    ctx = Context(inv, path=path, base_dir=os.path.dirname(path), target=target,
                  resolve_model=_resolve_model, text_of=texts.get)
    out = []
    for rule in invocation_rules():
        if not rule.applies_to(kn.version):
            continue
        # A rule that raises fails the test (the engine would show an SL000
        # warning): a crash must never pass for "no finding".
        out.extend(Result(rule, f) for f in rule.check(ctx))
    return out
