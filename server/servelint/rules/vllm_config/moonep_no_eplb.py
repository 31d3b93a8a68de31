"""SL642: the moonep all2all backend with EPLB."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message
from ._late import moonep

_CHECK = VllmCheck("vllm.moonep_no_eplb", "The moonep all2all backend does not support EPLB yet",
                   "vllm/config/vllm.py")


class MoonepNoEplb(Rule):
    """`--all2all-backend moonep` with `--enable-eplb`.

    ## What it does
    For targets `cuda` and `rocm`, reports `--enable-eplb` written
    together with `--all2all-backend moonep`.

    ## Why
    EPLB rearranges expert parameters in a layout MoonEP's replicated
    weights do not follow. vLLM stops while building its config: "The
    moonep all2all backend does not support EPLB yet: ... Disable
    --enable-eplb or use a different --all2all-backend."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-30B-A3B -tp 2 --enable-expert-parallel --all2all-backend moonep --enable-eplb
    ```

    ## Fix
    Remove `--enable-eplb`, or pick another `--all2all-backend`.

    ## Evidence
    Both flags as written (silent when either is only known at run time)
    and the declared target: on other platforms `ParallelConfig` refuses
    EPLB itself first.

    ## vLLM source
    `VllmConfig.__post_init__`, the moonep block (after its quantization
    and dtype checks). Verified from vLLM's source only: the vllm-oracle
    runs on vLLM's CPU platform, where `ParallelConfig` refuses EPLB
    before this check.
    """

    code = "SL642"
    name = "moonep-no-eplb"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.31.0", "0.33.0")
    anchor = "--enable-eplb"
    partners = ("--all2all-backend",)
    requires = ("--all2all-backend",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.target not in ("cuda", "rocm"):
            return
        backend = moonep(ctx)
        if backend is None:
            return
        eplb = value_of(ctx.invocation, "enable_eplb")
        if eplb.how != "flag" or eplb.value is not True:
            return
        message = vllm_message(ctx, _CHECK.key)
        if message is None:
            return
        rel = related(ctx, [backend], "MoonEP selected by {flag}")
        yield finding(ctx, eplb.flags[-1], message, _CHECK.key, related_to=rel)
