"""The speculative-decoding rules (SL4xx) where the oracle cannot judge them:
the conditions under which they must stay silent (facts the file does not
show, drafts vLLM rewrites), and the model types whose MTP resolution
servelint models."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance_lint_harness import lint_argv  # noqa: E402 - registered by conftest.py

MODELS = Path(__file__).resolve().parent.parent / "conformance" / "models"


def codes(argv, version="0.33.0", env=None):
    """The SL4xx codes reported, errors and warnings alike."""
    return sorted(r.rule.code for r in lint_argv(argv, version, env=env) if r.rule.code.startswith("SL4"))


def spec(**keys) -> list[str]:
    return ["--speculative-config", json.dumps(keys)]


@pytest.fixture
def model_dir(tmp_path):
    """A model directory holding ``config.json`` built from a bundled one."""

    def make(base: str, **changes) -> str:
        cfg = json.loads((MODELS / base / "config.json").read_text())
        for k, v in changes.items():
            if v is None:
                cfg.pop(k, None)
            else:
                cfg[k] = v
        d = tmp_path / f"{base}-{len(list(tmp_path.iterdir()))}"
        d.mkdir()
        (d / "config.json").write_text(json.dumps(cfg))
        return str(d)

    return make


def test_mtp_on_a_model_vllm_rewrites_is_left_to_vllm(model_dir):
    # Qwen3-Next's model type is one hf_config_override turns into an MTP
    # draft: servelint does not model it and must not call it unsupported.
    qwen3_next = model_dir("qwen3", model_type="qwen3_next", architectures=["Qwen3NextForCausalLM"])
    assert "SL402" not in codes([qwen3_next, *spec(method="mtp", num_speculative_tokens=1)])


def test_nemotron_h_with_mtp_layers_is_an_mtp_draft(model_dir):
    with_mtp = model_dir("nemotronh", num_nextn_predict_layers=1)
    assert "SL402" not in codes([with_mtp, *spec(method="mtp", num_speculative_tokens=1)])
    assert "SL402" in codes([str(MODELS / "nemotronh"), *spec(method="mtp", num_speculative_tokens=1)])


def test_mtp_without_the_served_models_config_is_silent():
    # A Hub id with no config.json at hand (neither local nor bundled): the
    # model type is unknown.
    assert codes(["example-org/unpublished-model", *spec(method="mtp", num_speculative_tokens=1)]) == []


def test_hf_overrides_leave_the_mtp_draft_unknown():
    argv = [str(MODELS / "llama"), "--hf-overrides", '{"model_type": "deepseek_v3"}',
            *spec(method="mtp", num_speculative_tokens=1)]
    assert "SL402" not in codes(argv)


def test_a_served_speculator_rewrites_the_speculative_config(model_dir):
    # vLLM replaces model and speculative config from a speculators
    # checkpoint's own config before any check servelint mirrors.
    speculator = model_dir("llama", speculators_config={"algorithm": "eagle3", "verifier": {"name_or_path": "x"}})
    assert codes([speculator, *spec(method="mtp", num_speculative_tokens=1)]) == []


def test_a_speculator_draft_keeps_its_own_token_count(model_dir):
    # SpeculatorsConfig supplies method and token count: no "model without
    # num_speculative_tokens".
    draft = model_dir("llama", speculators_config={"algorithm": "eagle3", "speculative_tokens": 3})
    assert "SL404" not in codes([str(MODELS / "llama"), *spec(model=draft)])


def test_an_unreadable_draft_is_silent(tmp_path):
    missing = str(tmp_path / "no-such-draft")
    assert codes([str(MODELS / "qwen3"), *spec(model=missing)]) == []
    assert codes([str(MODELS / "qwen3"), *spec(method="mtp", model=missing)]) == []


def test_a_variable_speculative_config_is_silent():
    argv = [str(MODELS / "llama"), "--speculative-config", "$SPEC"]
    assert codes(argv, env={}) == []


def test_release_0_25_reads_a_dotted_model_as_a_custom_class():
    # 0.25.0 makes any model with a "." and no "/" a custom proposer, even
    # with a method given: no draft is loaded, so the n-gram window is not
    # checked; from 0.26.0 the method stands.
    argv = [str(MODELS / "llama"), *spec(method="ngram", model="my.proposer", num_speculative_tokens=3,
                                        prompt_lookup_min=5, prompt_lookup_max=2)]
    assert "SL401" not in codes(argv, "0.25.0")
    assert "SL401" in codes(argv, "0.26.0")


def test_checks_newer_than_the_release_are_silent():
    argv = [str(MODELS / "llama"), *spec(method="ngram", num_speculative_tokens=1, rejection_sample_method="fly")]
    assert "SL411" in codes(argv, "0.33.0")
    assert "SL411" not in codes(argv, "0.32.0")


def test_adaptive_verification_is_reported_only_with_an_eager_mode_written():
    # The CUDA-graph mode vLLM picks on a GPU has full graphs.
    base = [str(MODELS / "llama"), *spec(method="dspark", num_speculative_tokens=3, enable_adaptive_verification=True)]
    assert "SL443" not in codes(base)
    assert "SL443" in codes([*base, "--enforce-eager"])
    assert "SL443" in codes([*base, "-cc", '{"cudagraph_mode": "PIECEWISE"}'])


# -- fixes --------------------------------------------------------------------


def _fixed(text: str, code: str, tmp_path, version: str = "0.33.0") -> tuple[str, str] | None:
    """(applicability, text after the fix) of the one verified fix of ``code``."""
    from servelint.edits import apply
    from servelint.engine import Engine
    from servelint.settings import Settings

    path = tmp_path / "run.sh"
    path.write_text(text)
    engine = Engine(Settings(vllm_version=version, use_installed_vllm=False))
    result = engine.lint(str(path), text)
    (d,) = [d for d in engine.checked(result) if d.code == code]
    fixes = engine.verified_fixes(result, d)
    if not fixes:
        return None
    (fix,) = fixes
    return fix.applicability.value, apply(text, fix.edits)


def test_the_deprecated_mtp_name_is_replaced_where_it_is_written(tmp_path):
    ds = MODELS / "deepseek-v3"
    json_form = f"vllm serve {ds} --speculative-config '{{\"method\": \"deepseek_mtp\", \"num_speculative_tokens\": 1}}'\n"
    assert _fixed(json_form, "SL430", tmp_path) == (
        "safe", f"vllm serve {ds} --speculative-config '{{\"method\": \"mtp\", \"num_speculative_tokens\": 1}}'\n")
    shortcut = f"vllm serve {ds} --spec-method deepseek_mtp --spec-tokens 1\n"
    assert _fixed(shortcut, "SL430", tmp_path) == ("safe", f"vllm serve {ds} --spec-method mtp --spec-tokens 1\n")


def test_tensor_parallel_size_is_renamed_in_json_and_dotted_keys(tmp_path):
    llama = MODELS / "llama"
    json_form = (f"vllm serve {llama} --speculative-config "
                 "'{\"method\": \"ngram\", \"num_speculative_tokens\": 3, \"tensor_parallel_size\": 1}'\n")
    assert _fixed(json_form, "SL406", tmp_path) == ("unsafe", json_form.replace('"tensor_parallel_size"',
                                                                                 '"draft_tensor_parallel_size"'))
    dotted = (f"vllm serve {llama} --speculative-config.method ngram --speculative-config.num_speculative_tokens 3 "
              "--speculative-config.tensor_parallel_size 1\n")
    assert _fixed(dotted, "SL406", tmp_path) == ("unsafe", dotted.replace(".tensor_parallel_size",
                                                                           ".draft_tensor_parallel_size"))
