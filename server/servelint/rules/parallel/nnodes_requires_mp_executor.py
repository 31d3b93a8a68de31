"""SL518: `--nnodes` above 1 with an executor backend other than mp, uni or external_launcher."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import int_of, known_flag, value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related

_CHECK = VllmCheck("parallel.nnodes_requires_mp_executor", "nnodes > 1 can only be set when distributed executor",
                   "vllm/config/parallel.py")
_ALLOWED = ("mp", "uni", "external_launcher")


class NnodesRequiresMpExecutor(Rule):
    """`--nnodes` above 1 with `--distributed-executor-backend ray` (or a custom executor).

    ## What it does
    Reports `--nnodes` above 1 when `--distributed-executor-backend` is
    written as anything but `mp`, `uni` or `external_launcher`.

    ## Why
    `--nnodes` and `--node-rank` describe vLLM's own multi-node
    multiprocessing launch; Ray places workers on nodes itself.
    `ParallelConfig.__post_init__` stops with "nnodes > 1 can only be set
    when distributed executor backend is mp, uni or external_launcher."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B -tp 2 --nnodes 2 --distributed-executor-backend ray
    ```

    ## Fix
    With Ray, drop `--nnodes`/`--node-rank` and let the Ray cluster place the
    workers; otherwise use `--distributed-executor-backend mp`.

    ## Evidence
    The flags as written. When the backend is not written vLLM picks `mp`
    for a multi-node launch, which passes.

    ## vLLM source
    `ParallelConfig.__post_init__`, after the executor backend is chosen.
    """

    code = "SL518"
    name = "nnodes-requires-mp-executor"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--distributed-executor-backend"
    partners = ("--nnodes",)
    requires = ("--distributed-executor-backend", "--nnodes")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        anchor = known_flag(inv, "distributed_executor_backend")
        if anchor is None:
            return
        backend = value_of(inv, "distributed_executor_backend")
        if not isinstance(backend.value, str) or backend.value in _ALLOWED:
            return
        nnodes = int_of(inv, "nnodes")
        if not nnodes.known or nnodes.value <= 1:
            return
        yield finding(ctx, anchor, "nnodes > 1 can only be set when distributed executor backend is mp, "
                      "uni or external_launcher.", _CHECK.key,
                      related_to=related(ctx, nnodes.flags, "multi-node launch set by {flag}"))
