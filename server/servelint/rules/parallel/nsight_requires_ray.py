"""SL519: `--ray-workers-use-nsight` without the Ray executor."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import int_of, known_flag, switch, value_of
from ...derive.parallel import data_parallel_launch
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message

_CHECK = VllmCheck("parallel.nsight_requires_ray", "Unable to use nsight profiling unless workers run with Ray.",
                   "vllm/config/parallel.py")


class NsightRequiresRay(Rule):
    """`--ray-workers-use-nsight` when the workers do not run on Ray.

    ## What it does
    Reports `--ray-workers-use-nsight` when the executor is not Ray: a
    `--distributed-executor-backend` written as `mp`, `uni` or
    `external_launcher`, or none written on a launch vLLM runs in one
    process (`uni`: a world size of 1) or spreads over nodes with its own
    multiprocessing (`--nnodes` above 1).

    ## Why
    Nsight profiling of workers goes through Ray's runtime environment.
    `ParallelConfig` stops with "Unable to use nsight profiling unless
    workers run with Ray."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --ray-workers-use-nsight
    ```

    ## Fix
    Add `--distributed-executor-backend ray`, or remove the flag.

    ## Evidence
    The flags as written. On one node with more than one GPU and no
    backend written, vLLM picks Ray when it runs inside a Ray placement
    group, which the file does not show: the rule is silent there.

    ## vLLM source
    `ParallelConfig._verify_args`.
    """

    code = "SL519"
    name = "nsight-requires-ray"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--ray-workers-use-nsight"
    partners = ("--distributed-executor-backend",)
    requires = ("--distributed-executor-backend", "--ray-workers-use-nsight", "VLLM_DP_SIZE")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        nsight = known_flag(inv, "ray_workers_use_nsight")
        if nsight is None or not switch(inv, "ray_workers_use_nsight"):
            return
        backend = value_of(inv, "distributed_executor_backend")
        if backend.how == "unknown":
            return
        if backend.value is None:
            dp = data_parallel_launch(ctx)
            pp, tp = int_of(inv, "pipeline_parallel_size"), int_of(inv, "tensor_parallel_size")
            pcp = int_of(inv, "prefill_context_parallel_size")
            if dp is None or not (pp.known and tp.known):
                return
            world = pp.value * tp.value * (pcp.value if pcp.known else 1)
            if dp.size == 1 and inv.env.get("VLLM_DP_SIZE") is not None:
                return  # the data-parallel size comes from the environment
            if world * dp.size > 1 and not (dp.nnodes > 1 and ctx.target == "cuda"):
                return  # mp or ray, depending on the GPUs and a Ray placement group
        elif backend.value not in ("mp", "uni", "external_launcher"):
            return
        yield finding(ctx, nsight, vllm_message(ctx, _CHECK.key), _CHECK.key)
