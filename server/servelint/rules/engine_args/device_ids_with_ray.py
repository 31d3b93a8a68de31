"""SL586: `--device-ids` with the Ray executor, which ignores it."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag, value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related

_CHECK = VllmCheck("engine_args.device_ids_with_ray", "--device-ids has no effect when using the Ray executor.",
                   "vllm/engine/arg_utils.py")
_MESSAGE = ("--device-ids has no effect when using the Ray executor. Use Ray placement groups for GPU selection "
            "instead.")


class DeviceIdsWithRay(Rule):
    """`--device-ids` with `--distributed-executor-backend ray`.

    ## What it does
    Warns about `--device-ids` in a launch that writes
    `--distributed-executor-backend ray`.

    ## Why
    Ray places the workers on GPUs itself; vLLM logs "--device-ids has no
    effect when using the Ray executor. Use Ray placement groups for GPU
    selection instead." and the launch may run on other GPUs than the ones
    listed.

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B -tp 2 --distributed-executor-backend ray --device-ids 2,3
    ```

    ## Fix
    Select the GPUs with a Ray placement group (or `CUDA_VISIBLE_DEVICES`
    for the Ray workers), and remove `--device-ids`.

    ## Evidence
    Both flags as written.

    ## vLLM source
    `EngineArgs._resolve_device_ids` (a warning).
    """

    code = "SL586"
    name = "device-ids-with-ray"
    category = Category.INCOMPATIBLE
    severity = Severity.WARNING
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--device-ids"
    partners = ("--distributed-executor-backend",)
    requires = ("--device-ids", "--distributed-executor-backend")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        ids = known_flag(inv, "device_ids")
        if ids is None or not value_of(inv, "device_ids").value:
            return
        if value_of(inv, "distributed_executor_backend").value != "ray":
            return
        yield finding(ctx, ids, None, _CHECK.key, message=_MESSAGE,
                      related_to=related(ctx, value_of(inv, "distributed_executor_backend").flags,
                                         "Ray executor set by {flag}"))
