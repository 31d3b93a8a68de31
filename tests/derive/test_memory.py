"""The weight and KV-cache estimates (derive/memory.py) against published
parameter counts and the numbers vLLM prints when it starts.

Reference numbers:

* parameters: the model cards of the checkpoints whose config.json
  tests/deployment/models/ holds (Llama-3.1-8B 8.03B, Llama-3.1-70B 70.6B,
  Qwen2.5-7B 7.61B, Qwen3-8B 8.2B, Qwen3-235B-A22B 235B, DeepSeek-V3 671B
  without its 14B multi-token-prediction layer);
* "Model loading took 14.99 GiB memory" for Llama-3.1-8B-Instruct in
  bfloat16 on one GPU, and "Available KV cache memory: 19.28 GiB / GPU KV
  cache size: 157,936 tokens" for it (vLLM V1 startup logs quoted in public
  repositories, e.g. GKE's inference reference architecture);
* "Available KV cache memory: 8.11 GiB / GPU KV cache size: 178,880 tokens"
  for Qwen3-235B-A22B-FP8 with tensor parallel size 4 (vllm-project/vllm
  issue #21348).

The error band these tests hold the estimate to is the one derive/memory.py
documents: parameters within 0.5% below (dense) or 1% below (MoE, MLA),
never above (the checks rest on lower bounds); KV per token within 1.5%.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from servelint import argv as argv_mod
from servelint import knowledge
from servelint.derive.memory import GIB, kv_per_token, param_count, weight_bytes
from servelint.engine.io import _resolve_model
from servelint.rules import Context

HERE = Path(__file__).resolve().parent
MODELS = HERE.parent / "deployment" / "models"
sys.path.insert(0, str(HERE.parent / "conformance"))
from harness import build_launch  # noqa: E402


def view(model: str, *flags: str, version: str = "0.33.0") -> Context:
    text, launch = build_launch([str(MODELS / model), *flags])
    inv = argv_mod.interpret(launch, knowledge.load(version))
    path = str(HERE / "launch.sh")
    return Context(inv, path=path, base_dir=os.path.dirname(path), resolve_model=_resolve_model,
                   text_of={path: text}.get)


@pytest.mark.parametrize("model,published,band", [
    ("llama-3.1-8b", 8.03e9, 0.005),
    ("llama-3.1-70b", 70.6e9, 0.005),
    ("qwen2.5-7b", 7.61e9, 0.005),
    ("qwen3-8b", 8.2e9, 0.01),  # the card rounds to 8.2B; the count is 8.19B
    ("qwen3-235b-a22b-fp8", 235e9, 0.01),
    ("deepseek-v3", 671e9, 0.01),
])
def test_parameters_are_a_tight_lower_bound(model, published, band):
    got = param_count(view(model)).total
    assert published * (1 - band) <= got <= published * (1 + 0.002), (model, got / 1e9)


def test_llama_8b_weights_match_what_vllm_loads():
    ctx = view("llama-3.1-8b")
    params = param_count(ctx)
    wb = weight_bytes(ctx, "bfloat16", None, False)
    gib = (params.linear * wb.linear + params.embedding * wb.embedding) / GIB
    # vLLM: "Model loading took 14.99 GiB memory" (norms and rotary caches included).
    assert 14.99 * 0.995 <= gib <= 14.99


def test_quantized_weights_keep_embeddings_in_the_model_dtype():
    ctx = view("qwen2.5-7b-awq")
    wb = weight_bytes(ctx, "float16", "awq", True)
    assert (wb.linear, wb.embedding, wb.label) == (0.5, 2, "awq 4-bit")
    fp8 = weight_bytes(view("deepseek-v3"), "bfloat16", "fp8", True)
    assert (fp8.linear, fp8.embedding, fp8.label) == (1.0, 2, "fp8")
    # A checkpoint quantized with a method servelint does not size: unknown.
    assert weight_bytes(ctx, "float16", "bitsandbytes", True) is None


def test_kv_cache_per_token_is_what_vllm_allocates():
    llama = kv_per_token(view("llama-3.1-8b"), 1, 1, "bfloat16")
    assert llama.bytes == 32 * 8 * 128 * 2 * 2 == 131072
    # vLLM: 19.28 GiB hold 157,936 tokens.
    assert abs(19.28 * GIB / 157936 - llama.bytes) / llama.bytes < 0.001
    qwen = kv_per_token(view("qwen3-235b-a22b-fp8", "-tp", "4"), 4, 1, "bfloat16")
    assert (qwen.layers, qwen.heads, qwen.head_size) == (94, 1, 128)
    # vLLM: 8.11 GiB hold 178,880 tokens (4 KV heads over TP 4: one each).
    assert abs(8.11 * GIB / 178880 - qwen.bytes) / qwen.bytes < 0.015


def test_kv_heads_are_replicated_beyond_their_count_and_mla_keeps_one_latent():
    tp8 = kv_per_token(view("qwen3-235b-a22b-fp8", "-tp", "8"), 8, 1, "bfloat16")
    assert tp8.heads == 1  # max(1, 4 // 8)
    pp2 = kv_per_token(view("llama-3.1-70b"), 1, 3, "bfloat16")
    assert pp2.layers == 27  # ceil(80 / 3)
    mla = kv_per_token(view("deepseek-v3", "-tp", "8"), 8, 1, "bfloat16")
    assert (mla.mla, mla.heads, mla.head_size, mla.factor) == (True, 1, 512 + 64, 1)
    fp8 = kv_per_token(view("llama-3.1-8b", "--kv-cache-dtype", "fp8"), 1, 1, "bfloat16")
    assert fp8.bytes == 65536


def test_unknown_shapes_are_not_estimated(tmp_path):
    import json

    cfg = json.loads((MODELS / "llama-3.1-8b" / "config.json").read_text())
    for change in ({"model_type": "falcon"}, {"num_hidden_layers": None}, {"layer_types": ["sliding_attention"] * 32}):
        d = tmp_path / f"m{len(list(tmp_path.iterdir()))}"
        d.mkdir()
        (d / "config.json").write_text(json.dumps({**cfg, **{k: v for k, v in change.items() if v is not None}}
                                                  if None not in change.values() else
                                                  {k: v for k, v in cfg.items() if k not in change}))
        text, launch = build_launch([str(d)])
        inv = argv_mod.interpret(launch, knowledge.load("0.33.0"))
        ctx = Context(inv, path=str(tmp_path / "x.sh"), base_dir=str(tmp_path), resolve_model=_resolve_model)
        if "layer_types" in change:
            assert param_count(ctx) is not None and kv_per_token(ctx, 1, 1, "bfloat16") is None
        else:
            assert param_count(ctx) is None
