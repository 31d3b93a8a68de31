"""SL211: a `--mamba-backend` value that is not a Mamba backend."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import last_flag
from ...derive.mamba import mamba_backends
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, vllm_source


class MambaBackendUnknown(Rule):
    """`--mamba-backend` value that is not a Mamba backend.

    ## What it does
    Reports a `--mamba-backend` value that is not `triton`, `flashinfer` or
    (from 0.27.0) `cpu` in any letter case, in releases whose parser accepts
    any string for it (where argparse checks choices, `invalid-value` reports
    it). `TRITON` and `FlashInfer` are fine: vLLM upper-cases the value.

    ## Why
    vLLM converts the value with `MambaBackendEnum[value.upper()]` while
    building its config and stops with "Unknown Mamba SSU backend".

    ## Example
    ```sh
    vllm serve nvidia/Nemotron-H-8B-Base-8K --mamba-backend flash-infer
    ```

    ## Fix
    Use `triton`, `flashinfer` or `cpu`.

    ## Evidence
    The value as written (not one only known at run time) and the members
    of `MambaBackendEnum` in the release the file runs.

    ## vLLM source
    `_MambaBackendEnumMeta.__getitem__` (vllm/config/mamba.py; the `CPU`
    member exists from 0.27.0), called from `EngineArgs.create_engine_config`
    (vllm/engine/arg_utils.py).
    """

    code = "SL211"
    vllm_checks = (VllmCheck("mamba_backend_unknown", "Unknown Mamba SSU backend: ", "vllm/config/mamba.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "mamba-backend-unknown"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    anchor = "--mamba-backend"
    requires = ("--mamba-backend",)
    reads = frozenset({"mamba_backend"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        opt = inv.knowledge.by_dest.get("mamba_backend")
        if opt is None or opt.choices is not None:
            return
        flag = last_flag(inv, "mamba_backend")
        if flag is None or not flag.values or not flag.exact:
            return
        word = flag.values[0]
        name = word.text.upper()
        backends = mamba_backends(ctx.version)
        if name in backends:
            return
        valid = ", ".join(backends)
        message = f"Unknown Mamba SSU backend: '{name}'. Valid options are: {valid}"
        path = (word.path if word.path is not None else None) or ctx.path
        yield Finding(word.span, message, flag="--mamba-backend", vllm_message=message, path=path,
                      data={"vllm_source": vllm_source(ctx, "mamba_backend_unknown")})
