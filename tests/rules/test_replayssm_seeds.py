"""The two error records servelint was founded on, as a user meets them.

Each seed (``shared/seeds/``) is a vLLM 0.28.0 error; a launch that provokes
it must yield exactly one diagnostic, on ``--use-replayssm``, with the
record's message and id, and the fix the record suggests.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from servelint import knowledge
from servelint.engine import Engine
from servelint.settings import Settings

CONFORMANCE = Path(__file__).resolve().parent.parent / "conformance"
sys.path.insert(0, str(CONFORMANCE))

from harness import build_launch, lint_argv, model_path  # noqa: E402

ARCH_SEED = ("1b37c46a30753abd", "--use-replayssm is only supported for Nemotron-H models (got architecture 'Mamba2ForCausalLM')")
SPEC_SEED = ("2844f4a584889da7", "--use-replayssm does not support speculative decoding")
NGRAM = '{"method":"ngram","num_speculative_tokens":3}'


def needs(version: str) -> None:
    if version not in knowledge.RELEASES:
        pytest.skip(f"no servelint knowledge for vLLM {version} yet")


def apply(text: str, edits) -> str:
    for e in sorted(edits, key=lambda e: e.span.start, reverse=True):
        text = text[: e.span.start] + e.new_text + text[e.span.end :]
    return text


def _records():
    return Engine(Settings(use_installed_vllm=False)).records


@pytest.mark.parametrize("seed,argv", [
    (ARCH_SEED, [model_path("mamba2"), "--use-replayssm"]),
    (SPEC_SEED, [model_path("nemotronh"), "--use-replayssm", "--speculative-config", NGRAM]),
])
def test_seed_launch_gives_one_diagnostic(seed, argv):
    needs("0.28.0")
    record_id, message = seed
    results = lint_argv(argv, "0.28.0")
    assert len(results) == 1, [r.finding.message for r in results]
    (r,) = results
    text, launch = build_launch(argv)
    anchor = launch.args[1]
    assert r.finding.span == anchor.span and text[r.finding.span.start : r.finding.span.end] == "--use-replayssm"
    assert r.finding.message.startswith(message)
    assert r.finding.vllm_message == message
    assert r.is_error
    rec = _records().match(r.finding.vllm_message)
    assert rec is not None and rec.id == record_id


def test_spec_seed_fix_is_the_records_example_fix():
    needs("0.28.0")
    argv = [model_path("nemotronh"), "--use-replayssm", "--speculative-config", NGRAM]
    (r,) = lint_argv(argv, "0.28.0")
    fix = next(f for f in r.finding.fixes if f.preferred)
    assert fix.title == "Remove --speculative-config (speculative decoding)"
    assert fix.safe
    text, _ = build_launch(argv)
    fixed = apply(text, fix.edits)
    assert fixed == f"vllm serve {model_path('nemotronh')} --use-replayssm\n"
    assert lint_argv([model_path("nemotronh"), "--use-replayssm"], "0.28.0") == []


def test_arch_seed_fix_removes_the_flag():
    needs("0.28.0")
    argv = [model_path("mamba2"), "--use-replayssm"]
    (r,) = lint_argv(argv, "0.28.0")
    fix = next(f for f in r.finding.fixes if f.preferred)
    assert fix.title == "Remove --use-replayssm" and fix.safe
    text, _ = build_launch(argv)
    assert apply(text, fix.edits) == f"vllm serve {model_path('mamba2')}\n"


CONFIG = """\
# servelint: vllm=0.28.0
model: {model}
use-replayssm: true
{extra}"""


@pytest.mark.parametrize("seed,model,extra", [
    (ARCH_SEED, "mamba2", ""),
    (SPEC_SEED, "nemotronh", "speculative-config:\n  method: ngram\n  num_speculative_tokens: 3\n"),
])
def test_seed_through_the_engine(tmp_path, seed, model, extra):
    """The whole path a user takes: a vLLM --config file linted by the engine."""
    needs("0.28.0")
    record_id, message = seed
    text = CONFIG.format(model=model_path(model), extra=extra)
    path = tmp_path / "serve.yaml"
    path.write_text(text)
    result = Engine(Settings(use_installed_vllm=False)).lint(str(path), text)
    diags = [d for d in result.diagnostics if d.code.startswith("SL2")]
    assert len(diags) == 1, [d.message for d in result.diagnostics]
    (d,) = diags
    assert text[d.span.start : d.span.end] == "use-replayssm"
    assert d.message.startswith(message)
    assert d.record == record_id
    assert d.vllm_version == "0.28.0"


def test_seed_through_the_engine_shell(tmp_path):
    pytest.importorskip("tree_sitter_bash")
    needs("0.28.0")
    text = (
        "#!/bin/sh\n# servelint: vllm=0.28.0\n"
        f"vllm serve {model_path('nemotronh')} --use-replayssm \\\n"
        f"  --speculative-config '{NGRAM}'\n"
    )
    path = tmp_path / "serve.sh"
    result = Engine(Settings(use_installed_vllm=False)).lint(str(path), text)
    diags = [d for d in result.diagnostics if d.code.startswith("SL2")]
    assert len(diags) == 1, [d.message for d in result.diagnostics]
    (d,) = diags
    assert text[d.span.start : d.span.end] == "--use-replayssm"
    assert d.message == SPEC_SEED[1] and d.record == SPEC_SEED[0]
    # The engine puts the record's own fix first and keeps its title when it
    # makes the same edit as the rule's.
    fix = next(f for f in d.fixes if f.preferred)
    assert fix.title.startswith("Remove --speculative-config") and fix.safe
    assert apply(text, fix.edits).endswith(f"vllm serve {model_path('nemotronh')} --use-replayssm\n")
