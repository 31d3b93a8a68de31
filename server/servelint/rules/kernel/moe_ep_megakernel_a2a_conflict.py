"""SL767: a FlashInfer MoE-EP megakernel with an explicit `--all2all-backend`."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...diagnostics import Applicability, Category, Severity
from ...knowledge import validators
from ...knowledge.config_names import names
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, removal_fix, vllm_message
from ._shared import moe_backend

_CHECK = VllmCheck("kernel.moe_ep_a2a_conflict", "dispatches and combines itself and cannot be paired with all2all_backend=",
                   "vllm/config/kernel.py")
_DEFAULT = "allgather_reducescatter"
# ParallelConfig.__post_init__ replaces the removed backends with the
# default (with a warning) before KernelConfig sees them.
_REMOVED = ("pplx", "naive")
_REMOVED_CHECK = "parallel.all2all_backend_removed"


class MoeEpMegakernelA2aConflict(Rule):
    """A FlashInfer MoE-EP backend paired with an `--all2all-backend`.

    ## What it does
    Reports `--all2all-backend` set to anything but its default
    (`allgather_reducescatter`) when the MoE backend (`--moe-backend`, or
    `--kernel-config`'s `moe_backend`) is one of the FlashInfer MoE-EP
    backends (`flashinfer_moe_ep_cutedsl`,
    `flashinfer_moe_ep_mega_deep_gemm`; generated per release).

    ## Why
    These kernels dispatch and combine the tokens themselves: vLLM binds the
    all2all backend to `passthrough` for them and refuses any other choice:
    "moe_backend='flashinfer_moe_ep_cutedsl' dispatches and combines itself
    and cannot be paired with all2all_backend='deepep_low_latency'; leave
    --all2all-backend unset.".

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V4 --moe-backend flashinfer_moe_ep_cutedsl --all2all-backend deepep_low_latency
    ```

    ## Fix
    Remove `--all2all-backend`.

    ## Fix safety
    Removing `--all2all-backend` is unsafe: it is what vLLM asks for, but
    the launch may have meant another MoE backend instead.

    ## Evidence
    Both flags as written (a `--config` key, `--kernel-config` JSON). Silent
    when a value is not known from the file, and for `pplx` and `naive`,
    which `ParallelConfig` replaces with the default first.

    ## vLLM source
    `bind_passthrough_all2all_backend`, called by `KernelConfig.set_platform_defaults` (from `VllmConfig.__post_init__`).
    """

    code = "SL767"
    name = "moe-ep-megakernel-a2a-conflict"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--all2all-backend"
    requires = ("--all2all-backend",)
    fixes = frozenset({Applicability.UNSAFE})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if inv.last("all2all_backend") is None:
            return
        backends = names("flashinfer_moe_ep_backends", ctx.version)
        if not backends:
            return
        got = moe_backend(inv)
        if got is None or got[0] not in backends:
            return
        moe, moe_flag = got
        a2a = value_of(inv, "all2all_backend")
        if not a2a.known or not isinstance(a2a.value, str) or not a2a.flags:
            return
        value = a2a.value
        if value in _REMOVED and validators.has(_REMOVED_CHECK, ctx.version):
            value = _DEFAULT
        if value == _DEFAULT:
            return
        rel = related(ctx, [moe_flag], f"moe_backend {moe!r} set by {{flag}}") if moe_flag is not None else []
        fix = removal_fix(ctx, [a2a.flags[-1]], "Remove --all2all-backend")
        yield finding(ctx, a2a.flags[-1], vllm_message(ctx, _CHECK.key, repr(moe), repr(value)), _CHECK.key,
                      related_to=rel, fixes=[fix] if fix is not None else [])
