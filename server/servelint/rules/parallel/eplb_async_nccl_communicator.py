"""SL501: an NCCL communicator for asynchronous EPLB."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import json_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding

_CHECK = VllmCheck("parallel.eplb_async_nccl_communicator", "communicator is incompatible with async EPLB",
                   "vllm/config/parallel.py")


class EplbAsyncNcclCommunicator(Rule):
    """`--eplb-config` `communicator` `torch_nccl` or `pynccl` with asynchronous EPLB.

    ## What it does
    Reports an `--eplb-config` whose `communicator` is `torch_nccl` or
    `pynccl` while `use_async` is on (its default).

    ## Why
    Asynchronous EPLB moves expert weights on a side stream, which NCCL's
    multi-stream use conflicts with. vLLM validates `--eplb-config` while
    parsing the command line and stops with "torch_nccl communicator is
    incompatible with async EPLB due to NCCL multi-stream conflicts. Use
    'torch_gloo' or 'nixl' instead, or leave communicator unset for
    automatic selection." (inside argparse's "argument --eplb-config: 1
    validation error for EPLBConfig").

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --enable-expert-parallel --enable-eplb -tp 8 \\
        --eplb-config '{"communicator": "torch_nccl"}'
    ```

    ## Fix
    Leave `communicator` out (vLLM picks NIXL or Gloo), choose `torch_gloo`
    or `nixl`, or set `"use_async": false`.

    ## Evidence
    The JSON as written (dotted keys merged); a value servelint cannot read
    keeps the rule silent.

    ## vLLM source
    The model validator `EPLBConfig._validate_eplb_config`, run by argparse's
    type for `--eplb-config`. The message servelint shows is the validator's;
    argparse wraps it in pydantic's report.
    """

    code = "SL501"
    name = "eplb-async-nccl-communicator"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--eplb-config"
    requires = ("--eplb-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if not inv.flags_for("eplb_config"):
            return
        cfg = json_of(inv, "eplb_config")
        if not cfg.known:
            return
        communicator = cfg.value.get("communicator")
        if communicator not in ("torch_nccl", "pynccl") or cfg.value.get("use_async", True) is not True:
            return
        shown = (f"{communicator} communicator is incompatible with async EPLB due to NCCL multi-stream conflicts. "
                 "Use 'torch_gloo' or 'nixl' instead, or leave communicator unset for automatic selection.")
        yield finding(ctx, cfg.flags[-1], None, _CHECK.key, message=shown)
