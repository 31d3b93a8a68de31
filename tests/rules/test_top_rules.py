"""The top-25 rule families on launches the oracle cannot judge, or judges
only on its CPU platform: other targets, GPU-dependent defaults, the
conditions under which the rules must stay silent, and per-release facts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from servelint import knowledge
from servelint.diagnostics import Severity

CONFORMANCE = Path(__file__).resolve().parent.parent / "conformance"
MODELS = CONFORMANCE / "models"


from conformance_lint_harness import lint_argv  # noqa: E402 - registered by conftest.py


def model(name: str) -> str:
    return str(MODELS / name)


def found(argv, version="0.33.0", *, env=None, target="cuda", rule=None):
    """(rule name, severity, vllm_message) of the SL3xx findings."""
    out = []
    for r in lint_argv(argv, version, env=env, target=target):
        if r.rule.code.startswith("SL3") and (rule is None or r.rule.name == rule):
            out.append((r.rule.name, r.severity, r.finding.vllm_message))
    return out


@pytest.fixture
def custom_model(tmp_path):
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


def needs(version):
    if version not in knowledge.RELEASES:
        pytest.skip(f"no knowledge for {version}")


# -- silence without facts ----------------------------------------------------


def test_config_rules_are_silent_without_a_config_json():
    # A Hub id resolved from the table only: no config.json (none on this
    # machine, no bundled copy), no head count.
    assert found(["meta-llama/Meta-Llama-3-70B-Instruct", "-tp", "3", "--max-model-len", "1000000",
                  "--enable-expert-parallel"]) == []


def test_hf_overrides_silence_config_rules():
    argv = [model("llama"), "-tp", "3", "--hf-overrides", '{"num_attention_heads": 48}']
    assert found(argv, rule="tp-divides-attention-heads") == []


def test_moe_by_default_model_type_is_not_called_dense(custom_model):
    # nemotron_h configs without an expert count are MoE by Transformers' default.
    m = custom_model("nemotronh")
    assert found([m, "--enable-expert-parallel"], rule="ep-requires-moe-model") == []
    dense = custom_model("qwen3")
    assert found([dense, "--enable-expert-parallel"], rule="ep-requires-moe-model")


def test_expert_count_in_config_is_moe(custom_model):
    m = custom_model("qwen3", num_experts=8)
    assert found([m, "--enable-expert-parallel"], rule="ep-requires-moe-model") == []


# -- max_model_len derivation per release ---------------------------------------


def test_yarn_before_0_30_resets_to_original_times_factor(custom_model):
    needs("0.29.0")
    m = custom_model("deepseek-v3", rope_scaling={"type": "yarn", "factor": 4,
                                                  "original_max_position_embeddings": 4096})
    # 0.29.0: 4096 * 4 = 16384 (ints stay ints); 0.30.0+: 163840.0, yarn not scaled.
    old = found([m, "--max-model-len", "20000"], "0.29.0", rule="max-model-len-exceeds-derived")
    assert old and "max_position_embeddings=16384 or" in old[0][2]
    needs("0.30.0")
    assert found([m, "--max-model-len", "20000"], "0.30.0", rule="max-model-len-exceeds-derived") == []


def test_linear_rope_factor_scales_and_model_max_length_wins(custom_model):
    m = custom_model("llama", max_position_embeddings=4096, rope_scaling={"type": "linear", "factor": 2.0})
    assert found([m, "--max-model-len", "8192"], rule="max-model-len-exceeds-derived") == []
    assert found([m, "--max-model-len", "8193"], rule="max-model-len-exceeds-derived")
    m2 = custom_model("mistral", model_max_length=65536)
    hit = found([m2, "--max-model-len", "70000"], rule="max-model-len-exceeds-derived")
    assert hit and "(model_max_length=65536.0 or model_max_length=65536 in" in hit[0][2]


def test_unknown_rope_type_is_silent(custom_model):
    m = custom_model("llama", rope_scaling={"rope_type": "mrope", "factor": 2.0})
    assert found([m, "--max-model-len", "10000000"], rule="max-model-len-exceeds-derived") == []


def test_allow_long_env_makes_it_a_warning_without_vllm_message():
    hit = found([model("mistral"), "--max-model-len", "40000"], env={"VLLM_ALLOW_LONG_MAX_MODEL_LEN": "true"})
    assert hit == [("max-model-len-exceeds-derived", Severity.WARNING, None)]


# -- GPU-dependent defaults ---------------------------------------------------------


def test_num_seqs_between_gpu_defaults_is_not_judged_on_cuda_but_is_on_cpu():
    argv = [model("llama"), "--max-num-seqs", "4096"]
    assert found(argv, rule="max-num-batched-tokens-ge-max-num-seqs") == []
    cpu = found(argv, target="cpu", rule="max-num-batched-tokens-ge-max-num-seqs")
    assert cpu and cpu[0][2] == "max_num_batched_tokens (2048) must be greater than or equal to max_num_seqs (4096)."
    # CPU defaults scale with TP x PP: 2048 x 2 tokens hold 4096 sequences.
    assert found(argv + ["-tp", "2"], target="cpu", rule="max-num-batched-tokens-ge-max-num-seqs") == []


def test_throughput_mode_doubles_the_defaults():
    argv = [model("llama"), "--max-num-seqs", "20000"]
    assert found(argv, rule="max-num-batched-tokens-ge-max-num-seqs")
    assert found(argv + ["--performance-mode", "throughput"], rule="max-num-batched-tokens-ge-max-num-seqs") == []


def test_lora_spec_defaults_only_when_every_gpu_agrees():
    spec = ["--speculative-config", '{"method": "ngram", "num_speculative_tokens": %d}']

    def run(k):
        argv = [model("llama"), "--enable-lora", spec[0], spec[1] % k]
        return found(argv, rule="lora-spec-batched-tokens")

    assert run(7) == []
    assert run(8) == []  # fails below 160 GiB, passes on B200-class GPUs
    assert run(16)


def test_batched_dp_moe_defaults_are_not_guessed():
    argv = [model("mixtral"), "--max-num-seqs", "512", "--all2all-backend", "deepep_low_latency",
            "--enable-expert-parallel", "--data-parallel-size", "8"]
    assert found(argv, rule="max-num-batched-tokens-ge-max-num-seqs") == []


# -- targets ------------------------------------------------------------------------


def test_dbo_per_target():
    dbo = [model("mixtral"), "--enable-dbo"]
    assert found(dbo, target="cpu", rule="dbo-requires-deepep-a2a") == []  # CPU turns DBO off
    assert found(dbo, target="tpu", rule="dbo-requires-deepep-a2a") == []
    rocm = [model("mixtral"), "--enable-dbo", "--all2all-backend", "allgather_reducescatter"]
    assert found(rocm, target="rocm", rule="dbo-requires-deepep-a2a") == []  # 0.33.0: ROCm allows it
    needs("0.32.0")
    assert found(rocm, "0.32.0", target="rocm", rule="dbo-requires-deepep-a2a")
    assert found([model("llama"), "--ubatch-size", "2"], target="cpu", rule="dbo-requires-deepep-a2a")


def test_eplb_rule_only_where_vllm_reaches_it():
    argv = [model("mixtral"), "--enable-eplb"]
    assert found(argv, target="cpu", rule="eplb-requires-expert-parallel") == []
    assert found(argv, target="xpu", rule="eplb-requires-expert-parallel")
    needs("0.30.0")
    assert found(argv, "0.30.0", target="xpu", rule="eplb-requires-expert-parallel") == []


def test_kv_cache_float_mismatch_certain_only_for_written_or_fp16_checkpoints(custom_model):
    fp16 = custom_model("qwen3", torch_dtype="float16")
    hit = found([fp16, "--kv-cache-dtype", "bfloat16"], rule="kv-cache-dtype-float-mismatch")
    assert hit and hit[0][1] == Severity.ERROR
    warn = found([model("llama"), "--kv-cache-dtype", "float16"], rule="kv-cache-dtype-float-mismatch")
    assert warn and warn[0][1] == Severity.WARNING
    assert found([model("llama"), "--kv-cache-dtype", "float16"], target="cpu",
                 rule="kv-cache-dtype-float-mismatch") == []
    assert found([model("llama"), "--kv-cache-dtype", "float16", "--quantization", "fp8"],
                 rule="kv-cache-dtype-float-mismatch") == []
    needs("0.32.0")
    assert found([model("llama"), "--dtype", "float32", "--kv-cache-dtype", "bfloat16"], "0.32.0",
                 rule="kv-cache-dtype-float-mismatch") == []


# -- JSON configs -----------------------------------------------------------------


def test_unknown_speculative_key_leaves_the_message_to_vllm():
    argv = [model("llama"), "--speculative-config", '{"method": "ngram", "num_speculative_tokenz": 3}']
    assert found(argv) == []


def test_spec_shortcut_conflicting_with_json_is_left_to_vllm():
    argv = [model("llama"), "--speculative-config", '{"method": "eagle", "num_speculative_tokens": 3}',
            "--spec-tokens", "2"]
    assert found(argv) == []


def test_spec_null_is_no_speculation():
    assert found([model("llama"), "--speculative-config", "None"]) == []


def test_whitespace_checks_each_whole_json_value():
    # argparse validates every occurrence; a later one does not rescue the first.
    argv = [model("llama"), "--structured-outputs-config", '{"disable_any_whitespace": true}',
            "--structured-outputs-config", '{"backend": "xgrammar"}']
    assert found(argv, rule="disable-any-whitespace-backend")
    ok = [model("llama"), "--structured-outputs-config", '{"disable_any_whitespace": "false"}']
    assert found(ok, rule="disable-any-whitespace-backend") == []


# -- per-release facts -------------------------------------------------------------


def test_quantization_lists_per_release():
    from servelint.derive.quantization import methods

    assert "bitsandbytes" in methods("0.27.1") and "bitsandbytes" not in methods("0.28.0")
    assert "nvfp4_per_token" not in methods("0.25.0") and "nvfp4_per_token" in methods("0.26.0")
    needs("0.27.1")
    assert found([model("llama"), "-q", "bitsandbytes"], "0.27.1", rule="quantization-unknown") == []


def test_quantized_checkpoint_gets_no_unknown_message(custom_model):
    m = custom_model("llama", quantization_config={"quant_method": "fp8"})
    hit = found([m, "-q", "bogus"], rule="quantization-unknown")
    assert hit and hit[0][2] is None  # vLLM reports the mismatch first


def test_plamo2_fp16_only_up_to_0_26(custom_model):
    m = custom_model("llama", model_type="plamo2", architectures=["Plamo2ForCausalLM"])
    needs("0.26.0")
    assert found([m, "--dtype", "half"], "0.26.0", rule="dtype-float16-unsupported-model")
    assert found([m, "--dtype", "half"], "0.27.0", rule="dtype-float16-unsupported-model") == []


def test_lora_unsupported_model_only_from_0_33():
    assert found([model("mamba2"), "--enable-lora"], rule="lora-unsupported-model")
    assert found([model("mamba2"), "--enable-lora"], "0.32.0", rule="lora-unsupported-model") == []


def test_every_top_rule_cites_a_source_line_for_its_releases():
    from servelint.knowledge import validators
    from servelint.rules import rule_classes

    top = [cls for cls in rule_classes() if cls.code.startswith("SL3")]
    assert len(top) >= 25
    for cls in top:
        doc = cls.doc()
        for section in ("## What it does", "## Why", "## Example", "## Fix", "## vLLM source"):
            assert section in doc, (cls.name, section)
        # The source lines come from the generated table, one per release the rule applies to.
        assert cls.vllm_checks, cls.name
        for release in validators.scanned_releases():
            if cls().applies_to(release):
                assert any(validators.site(c.key, release) for c in cls.vllm_checks), (cls.name, release)
