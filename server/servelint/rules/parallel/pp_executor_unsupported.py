"""SL540: pipeline parallelism with an executor that cannot run it."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import int_of, known_flag, value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related

_CHECK = VllmCheck("parallel.pp_executor_unsupported", "Pipeline Parallelism without Ray distributed executor",
                   "vllm/engine/arg_utils.py")
_MESSAGE = ("Pipeline Parallelism without Ray distributed executor or multiprocessing executor or external launcher "
            "is not supported. We recommend to remove Pipeline Parallelism without Ray distributed executor or "
            "multiprocessing executor or external launcher from your config.")


class PipelineParallelExecutorUnsupported(Rule):
    """`--pipeline-parallel-size` above 1 with `--distributed-executor-backend uni` (or a custom executor).

    ## What it does
    Reports pipeline parallelism when `--distributed-executor-backend` is
    written as anything but `ray`, `mp` or `external_launcher`.

    ## Why
    The single-process executor (`uni`) runs one worker and cannot run
    pipeline stages; a custom executor must declare `supports_pp`, which an
    import path on the command line does not show. vLLM stops with
    "Pipeline Parallelism without Ray distributed executor or
    multiprocessing executor or external launcher is not supported. ..."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B -pp 2 --distributed-executor-backend uni
    ```

    ## Fix
    Use `--distributed-executor-backend mp` (or leave it out).

    ## Evidence
    The flags as written.

    ## vLLM source
    `EngineArgs._check_feature_supported`, at the start of `create_engine_config`.
    """

    code = "SL540"
    name = "pp-executor-unsupported"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--distributed-executor-backend"
    partners = ("--pipeline-parallel-size",)
    requires = ("--distributed-executor-backend", "--pipeline-parallel-size")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        anchor = known_flag(inv, "distributed_executor_backend")
        if anchor is None:
            return
        backend = value_of(inv, "distributed_executor_backend").value
        if not isinstance(backend, str) or backend in ("ray", "mp", "external_launcher"):
            return
        pp = int_of(inv, "pipeline_parallel_size")
        if not pp.known or pp.value <= 1:
            return
        yield finding(ctx, anchor, _MESSAGE, _CHECK.key,
                      related_to=related(ctx, pp.flags, "pipeline parallelism set by {flag}"))
