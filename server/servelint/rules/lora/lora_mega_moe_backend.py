"""SL901: LoRA with a MegaMoE backend."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import switch, value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message

_CHECK = VllmCheck("lora.mega_moe_backend", "LoRA is not supported with moe_backend={}. Disable LoRA",
                   "vllm/config/lora.py")

# MEGA_MOE_BACKENDS | {"aiter_mega_moe"} (vllm/config/kernel.py, vllm/config/lora.py
# LoRAConfig.verify_with_kernel_config); a name the release's --moe-backend
# does not offer is refused by argparse first.
_MEGA_MOE = frozenset({"deep_gemm_mega_moe", "flashinfer_moe_ep_cutedsl", "flashinfer_moe_ep_mega_cutedsl",
                       "flashinfer_moe_ep_mega_deep_gemm", "aiter_mega_moe"})


class LoraMegaMoeBackend(Rule):
    """`--enable-lora` with a MegaMoE `--moe-backend`.

    ## What it does
    Reports `--moe-backend deep_gemm_mega_moe` (or another megakernel MoE
    backend: `flashinfer_moe_ep_*`, `aiter_mega_moe`) on a launch with
    `--enable-lora`.

    ## Why
    The megakernel MoE backends run the experts in one fused kernel that
    has no LoRA path. `LoRAConfig.verify_with_kernel_config` stops the
    launch: "LoRA is not supported with moe_backend='deep_gemm_mega_moe'.
    Disable LoRA or select a MoE backend that supports LoRA." (on any
    model: the check does not look at the model).

    ## Example
    ```sh
    vllm serve mistralai/Mixtral-8x7B-Instruct-v0.1 --enable-lora --moe-backend deep_gemm_mega_moe
    ```

    ## Fix
    Pick another `--moe-backend` (or drop it), or run without LoRA.

    ## Evidence
    Both flags as written; a value the file does not show keeps the rule
    silent.

    ## vLLM source
    `LoRAConfig.verify_with_kernel_config`, called by `VllmConfig.__post_init__`.
    """

    code = "SL901"
    name = "lora-mega-moe-backend"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--moe-backend"
    partners = ("--enable-lora",)
    requires = ("--moe-backend",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        backend = value_of(inv, "moe_backend")
        if backend.how != "flag" or backend.value not in _MEGA_MOE:
            return
        if switch(inv, "enable_lora") is not True:
            return
        yield finding(ctx, backend.flags[-1], vllm_message(ctx, _CHECK.key, repr(backend.value)), _CHECK.key,
                      related_to=related(ctx, value_of(inv, "enable_lora").flags, "LoRA turned on by {flag}"))
