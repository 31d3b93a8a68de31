"""SL324: DBO / microbatching without a DeepEP or NIXL all-to-all backend."""

from __future__ import annotations

from typing import Iterable

from ...derive.base import is_int
from ...derive.flags import value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message

_DBO = VllmCheck("dbo", "Microbatching currently only supports the", "vllm/config/vllm.py")
_DEEPEP_NIXL = ("deepep_low_latency", "deepep_high_throughput", "nixl_ep")


class MicrobatchingAllToAll(Rule):
    """DBO / microbatching without a DeepEP or NIXL all-to-all backend.

    ## What it does
    Reports `--enable-dbo` or `--ubatch-size` above 1 when
    `--all2all-backend` is not `deepep_low_latency`,
    `deepep_high_throughput` or `nixl_ep` (the default is
    `allgather_reducescatter`; `naive` and `pplx` become it). From 0.33.0
    ROCm also accepts `allgather_reducescatter`. On a `cpu` target vLLM
    turns DBO off, so only `--ubatch-size` counts there; other targets are
    not judged.

    ## Why
    vLLM asserts this while building its config: "Microbatching currently
    only supports the deepep_low_latency, deepep_high_throughput, nixl_ep
    all2all backends on this platform. ..."

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --enable-expert-parallel --enable-dbo
    ```

    ## Fix
    Add `--all2all-backend deepep_low_latency` (or `deepep_high_throughput`
    / `nixl_ep`) and install its kernels, or remove `--enable-dbo`.

    ## Evidence
    `--enable-dbo`, `--ubatch-size` and `--all2all-backend` as written
    (silent when one is only known at run time) and the declared target.

    ## vLLM source
    `VllmConfig.__post_init__` (one message for every platform up to 0.32.0,
    per platform from 0.33.0); `ParallelConfig.use_ubatching` is
    `enable_dbo or ubatch_size > 1` (vllm/config/parallel.py); the CPU
    platform turns `enable_dbo` off in `CpuPlatform.check_and_update_config`
    (vllm/platforms/cpu.py).
    """

    code = "SL324"
    vllm_checks = (_DBO,)
    reviewed = ("0.25.0", "0.33.0")
    name = "dbo-requires-deepep-a2a"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--all2all-backend"
    partners = ("--enable-dbo", "--ubatch-size")
    requires = ("--all2all-backend", "--enable-dbo", "--ubatch-size")
    reads = frozenset({"enable_dbo", "ubatch_size", "all2all_backend"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.target not in ("cuda", "rocm", "cpu"):
            return
        inv = ctx.invocation
        dbo = value_of(inv, "enable_dbo")
        ub = value_of(inv, "ubatch_size")
        if not dbo.known or not ub.known:
            return
        triggers = []
        if dbo.value and ctx.target != "cpu":
            triggers.extend(dbo.flags)
        if is_int(ub.value) and ub.value > 1:
            triggers.extend(ub.flags)
        if not triggers:
            return
        backend = value_of(inv, "all2all_backend")
        if not backend.known or not isinstance(backend.value, str):
            return
        a2a = backend.value
        if a2a in ("naive", "pplx"):
            a2a = "allgather_reducescatter"  # ParallelConfig maps them with a warning
        if ctx.at_least("0.33.0"):
            # Per platform from 0.33.0 (vllm/config/vllm.py 0.33.0 :2180-2198):
            # ROCm also takes allgather_reducescatter.
            supported = list(_DEEPEP_NIXL)
            if ctx.target == "rocm":
                supported.append("allgather_reducescatter")
            if a2a in supported:
                return
            message = vllm_message(ctx, _DBO.key, ", ".join(supported), a2a,
                                   ", ".join("--all2all-backend=" + b for b in supported))
        else:
            if a2a in _DEEPEP_NIXL:
                return
            message = vllm_message(ctx, _DBO.key, a2a)
        if message is None:
            return
        anchor = backend.flags[-1] if backend.how == "flag" and backend.flags else triggers[-1]
        rel = related(ctx, [f for f in triggers if f is not anchor], "microbatching turned on by {flag}")
        note = "" if backend.how == "flag" else "the default all2all backend is allgather_reducescatter"
        yield finding(ctx, anchor, message, "dbo", note=note, related_to=rel)
