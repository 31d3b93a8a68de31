"""SL768: the FlashInfer MoE-EP DeepGEMM megakernel on a model that is not DeepSeek-V4."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import written
from ...derive.model import model_config
from ...diagnostics import Category, Severity
from ...knowledge.config_names import names
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, model_note, vllm_message
from ._shared import moe_backend

_CHECK = VllmCheck("kernel.moe_ep_requires_dsv4", "is only supported for DeepSeek-V4 models", "vllm/config/kernel.py")


class MoeBackendMegadeepgemmRequiresDsv4(Rule):
    """A FlashInfer MoE-EP megakernel on a model that is not DeepSeek-V4.

    ## What it does
    Reports `--moe-backend flashinfer_moe_ep_mega_deep_gemm` (or
    `--kernel-config`'s `moe_backend`) when none of the model's
    architectures (its config.json `architectures`) is a DeepSeek-V4 one
    (`DeepseekV4ForCausalLM`, `DeepSeekV4MTPModel`, `DeepseekV41ForCausalLM`).
    In 0.29.0-0.31.0 vLLM checks `flashinfer_moe_ep_mega_cutedsl` the same
    way (the backends and architectures are generated per release).

    ## Why
    The DeepGEMM megakernel consumes the DeepSeek-V4 MXFP4 checkpoint
    recipe; vLLM stops: "moe_backend='flashinfer_moe_ep_mega_deep_gemm' is
    only supported for DeepSeek-V4 models (['DeepSeekV4MTPModel',
    'DeepseekV41ForCausalLM', 'DeepseekV4ForCausalLM']), but the model is
    ['Qwen3MoeForCausalLM'].".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-30B-A3B --moe-backend flashinfer_moe_ep_mega_deep_gemm
    ```

    ## Fix
    Use another MoE backend (or leave it `auto`).

    ## Evidence
    The MoE backend as written and the model's config.json. Silent when the
    config.json is not known, when `--hf-overrides` or `--model-impl` is
    written (they may change the architectures vLLM reads), and when a value
    is not known from the file.

    ## vLLM source
    `validate_flashinfer_moe_ep_model`, called by `KernelConfig.set_platform_defaults` (from `VllmConfig.__post_init__`).
    """

    code = "SL768"
    name = "moe-backend-megadeepgemm-requires-dsv4"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--moe-backend"
    requires = ("--moe-backend", "--kernel-config")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        backends = names("flashinfer_moe_ep_model_backends", ctx.version)
        allowed = names("flashinfer_moe_ep_architectures", ctx.version)
        if not backends or allowed is None:
            return
        got = moe_backend(inv)
        if got is None or got[0] not in backends or got[1] is None:
            return
        moe, flag = got
        if written(inv, "model_impl"):
            return
        cfg = model_config(ctx)
        archs = cfg.get("architectures") if cfg is not None else None
        if not isinstance(archs, list) or not archs or not all(isinstance(a, str) for a in archs):
            return
        if any(a in allowed for a in archs):
            return
        note = model_note(ctx)
        yield finding(ctx, flag, vllm_message(ctx, _CHECK.key, repr(moe), repr(sorted(allowed)), repr(list(archs))),
                      _CHECK.key, related_to=[note] if note is not None else [])
