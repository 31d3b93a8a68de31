"""``--mamba-block-size`` without prefix caching (SL210) and the backend enum (SL211).

The prefix-caching default is the release's and the model family's:
attention-free models have it off everywhere, hybrid models off up to 0.27.1
and on from 0.28.0, other decoders on (engine/arg_utils.py
``_set_default_chunked_prefill_and_prefix_caching_args``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from servelint import knowledge
from servelint.diagnostics import Severity

CONFORMANCE = Path(__file__).resolve().parent.parent / "conformance"
sys.path.insert(0, str(CONFORMANCE))

from harness import build_launch, lint_argv, model_path  # noqa: E402

MSG = "--mamba-block-size can only be set with --enable-prefix-caching"
OLD = ("0.25.0", "0.26.0", "0.27.0", "0.27.1")
NEW = ("0.28.0", "0.29.0", "0.30.0", "0.31.0", "0.32.0", "0.33.0")
ALL = OLD + NEW


def needs(version: str) -> None:
    if version not in knowledge.RELEASES:
        pytest.skip(f"no servelint knowledge for vLLM {version} yet")


def sl210(version, argv, target="cuda"):
    needs(version)
    return [r for r in lint_argv(argv, version, target=target) if r.rule.code == "SL210"]


CASES = [
    # (model, extra flags, releases where vLLM refuses it)
    ("mamba2", [], ALL),
    ("mamba2", ["--enable-prefix-caching"], ()),
    ("nemotronh", [], OLD),
    ("nemotronh", ["--no-enable-prefix-caching"], ALL),
    ("nemotronh", ["--enable-prefix-caching"], ()),
    ("falcon-h1", [], OLD),
    ("jamba", [], OLD),
    ("jamba", ["--no-enable-prefix-caching"], ALL),
    ("llama", [], ()),
    ("llama", ["--no-enable-prefix-caching"], ALL),
    ("gemma3", [], ()),
]


@pytest.mark.parametrize("version", ALL)
@pytest.mark.parametrize("model,extra,fails", CASES, ids=[f"{m}{''.join(e)}" for m, e, _ in CASES])
def test_prefix_caching_default_per_family(version, model, extra, fails):
    found = sl210(version, [model_path(model), "--mamba-block-size", "32", *extra])
    if version in fails:
        (r,) = found
        assert r.finding.vllm_message == MSG and r.is_error
    else:
        assert found == []


def test_anchor_related_and_fix():
    argv = [model_path("nemotronh"), "--mamba-block-size", "32", "--no-enable-prefix-caching"]
    (r,) = sl210("0.33.0", argv)
    text, _ = build_launch(argv)
    assert text[r.finding.span.start : r.finding.span.end] == "--mamba-block-size"
    (rel,) = r.finding.related
    assert text[rel.span.start : rel.span.end] == "--no-enable-prefix-caching"
    assert r.finding.message == MSG
    (fix,) = r.finding.fixes
    assert fix.title == "Remove --mamba-block-size" and fix.safe
    (edit,) = fix.edits
    fixed = text[: edit.span.start] + edit.new_text + text[edit.span.end :]
    assert fixed == f"vllm serve {model_path('nemotronh')} --no-enable-prefix-caching\n"


def test_default_is_explained():
    (r,) = sl210("0.33.0", [model_path("mamba2"), "--mamba-block-size", "32"])
    assert r.finding.message == MSG + " (prefix caching is off by default for attention-free models in vLLM 0.33.0)"


@pytest.mark.parametrize("extra,fails", [
    (["--max-model-len", "4096"], False),  # equal to max_model_len: unset
    (["--max-model-len", "4k"], True),  # 4000
    (["--max-model-len", "2048"], True),
    ([], False),  # 8192, the model's max_position_embeddings
])
def test_block_size_equal_to_max_model_len_counts_as_unset(extra, fails):
    size = "8192" if not extra else "4096"
    found = sl210("0.33.0", [model_path("nemotronh"), "--mamba-block-size", size, "--no-enable-prefix-caching", *extra])
    assert bool(found) == fails


def test_none_is_unset():
    assert sl210("0.33.0", [model_path("mamba2"), "--mamba-block-size", "None"]) == []


def test_last_prefix_caching_flag_wins():
    argv = [model_path("nemotronh"), "--mamba-block-size", "64", "--enable-prefix-caching", "--no-enable-prefix-caching"]
    assert len(sl210("0.33.0", argv)) == 1


def test_mla_on_cpu_turns_prefix_caching_off():
    argv = [model_path("deepseek-v3"), "--mamba-block-size", "32"]
    assert sl210("0.33.0", argv, target="cuda") == []
    (r,) = sl210("0.33.0", argv, target="cpu")
    assert "MLA models on CPUs without AMX" in r.finding.message


def test_inferred_architecture_lowers_severity():
    (r,) = sl210("0.33.0", ["state-spaces/mamba-2.7b", "--mamba-block-size", "32"])
    assert r.severity == Severity.WARNING
    assert "inferred from" in r.finding.message


def test_unresolved_model_is_silent():
    assert sl210("0.33.0", ["acme/no-such-model-anywhere", "--mamba-block-size", "32"]) == []
    # ... unless prefix caching is turned off in the launch itself.
    assert len(sl210("0.33.0", ["acme/no-such-model-anywhere", "--mamba-block-size", "32", "--no-enable-prefix-caching"])) == 1


# -- SL211 --------------------------------------------------------------------


@pytest.mark.parametrize("value,ok", [("triton", True), ("TRITON", True), ("FlashInfer", True), ("cpu", True),
                                      ("nonsense", False), ("flash-infer", False)])
def test_backend_names_are_case_insensitive(value, ok):
    needs("0.33.0")
    argv = [model_path("nemotronh"), "--mamba-backend", value]
    found = [r for r in lint_argv(argv, "0.33.0") if r.rule.code == "SL211"]
    if ok:
        assert found == []
    else:
        (r,) = found
        assert r.finding.vllm_message == (
            f"Unknown Mamba SSU backend: '{value.upper()}'. Valid options are: TRITON, FLASHINFER, CPU"
        )
        text, _ = build_launch(argv)
        assert text[r.finding.span.start : r.finding.span.end] == value


def test_cpu_backend_exists_from_0_27_0():
    argv = [model_path("nemotronh"), "--mamba-backend", "cpu"]
    needs("0.26.0")
    (r,) = [r for r in lint_argv(argv, "0.26.0") if r.rule.code == "SL211"]
    assert r.finding.vllm_message == "Unknown Mamba SSU backend: 'CPU'. Valid options are: TRITON, FLASHINFER"
    needs("0.27.0")
    assert [r for r in lint_argv(argv, "0.27.0") if r.rule.code == "SL211"] == []
