"""SL584: an IR op priority given both by `--ir-op-priority` and by `--kernel-config`."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import json_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message
from ._shared import json_key

_CHECK = VllmCheck("engine_args.ir_op_priority_conflict", "specified via both ir_op_priority and KernelConfig.ir_op_priority",
                   "vllm/engine/arg_utils.py")


class IrOpPriorityConflict(Rule):
    """The priority of one IR op given by `--ir-op-priority` and by `--kernel-config`.

    ## What it does
    Reports an op (`rms_norm`, `fused_add_rms_norm`, ...) whose priority list
    is set, non-empty, both in `--ir-op-priority` and in `--kernel-config`'s
    `ir_op_priority`.

    ## Why
    `--ir-op-priority` is copied into `KernelConfig.ir_op_priority` op by op;
    an op set in both stops the launch: "Op priority for rms_norm specified
    via both ir_op_priority and KernelConfig.ir_op_priority, only one
    allowed at a time."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --ir-op-priority.rms_norm native --kernel-config.ir_op_priority.rms_norm native
    ```

    ## Fix
    Set each op's priority in one place.

    ## Evidence
    Both JSON values as written (dotted keys merged); a value servelint
    cannot read keeps the rule silent.

    ## vLLM source
    `EngineArgs.create_engine_config`, after the kernel-config shorthands.
    """

    code = "SL584"
    name = "ir-op-priority-conflict"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--ir-op-priority"
    partners = ("--kernel-config",)
    requires = ("--ir-op-priority", "--kernel-config")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if not inv.flags_for("ir_op_priority") or not inv.flags_for("kernel_config"):
            return
        top = json_of(inv, "ir_op_priority")
        kernel = json_key(ctx, "kernel_config", "ir_op_priority")
        if not top.known or kernel is None or not isinstance(kernel[1], dict):
            return
        for op, priority in top.value.items():  # asdict order: the fields' order; the JSON's keeps it for one op
            if priority and kernel[1].get(op):
                yield finding(ctx, top.flags[-1], vllm_message(ctx, _CHECK.key, op), _CHECK.key,
                              related_to=related(ctx, [kernel[0]], "also set by {flag}"))
                return
