"""SL801: more GPUs for tensor, pipeline and data parallelism than the launch gets."""

from __future__ import annotations

from typing import Iterable

from ...derive.deployment import deployment, gpu_count
from ...derive.flags import last_flag, value_of, written
from ...diagnostics import Applicability, Category, Edit, Fix, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, vllm_source
from ._shared import not_vllm_argv, parallel, related, vllm_text, where, written_int

_CHECK = VllmCheck(
    "deployment.world_size", "is larger than the number of available GPUs ({}) in this node.",
    "vllm/config/parallel.py",
)

# Options that make the GPUs of one node not the whole story: the data
# parallel ranks are spread over nodes or launched one by one.
_DP_ELSEWHERE = ("data_parallel_rank", "data_parallel_start_rank", "data_parallel_address", "headless",
                 "data_parallel_external_lb", "data_parallel_hybrid_lb")


class WorldSizeExceedsGpus(Rule):
    """More GPUs for tensor × pipeline (× data) parallelism than the launch gets.

    ## What it does
    Compares `--tensor-parallel-size` × `--pipeline-parallel-size` (×
    `--prefill-context-parallel-size`: vLLM's world size) with the GPUs the
    file gives the launch: a Kubernetes container's `nvidia.com/gpu` (or
    `amd.com/gpu`, Intel, Gaudi) limit, a compose device reservation,
    `docker run --gpus`, a SkyPilot task's `accelerators`, a Slurm job's
    `--gres`/`--gpus`, or a `CUDA_VISIBLE_DEVICES` set for the launch.
    Then the same for data parallelism: `--data-parallel-size` (or
    `--data-parallel-size-local`) engines of that world size each, on one
    node.

    ## Why
    With the default executor on an NVIDIA GPU, `ParallelConfig` stops
    before anything loads: "World size (4) is larger than the number of
    available GPUs (2) in this node." With `--distributed-executor-backend
    mp`, on other GPUs, or when data parallel engines ask for more GPUs
    than the node has, the launch fails later, when the workers start
    ("DP adjusted local rank ... is out of bounds"): a warning.

    ## Example
    ```yaml
    containers:
      - name: vllm
        image: vllm/vllm-openai:v0.33.0
        args: ["meta-llama/Llama-3.1-70B-Instruct", "--tensor-parallel-size", "4"]
        resources:
          limits:
            nvidia.com/gpu: 2
    ```

    ## Fix
    Request as many GPUs as the world size (the fix offers it where the
    count is one plain number), or lower the parallel sizes.

    ## Fix safety
    Unsafe: asking for more GPUs changes where the workload can be
    scheduled and what it costs.

    ## Evidence
    The parallel sizes as written (defaults 1) and a GPU count the file
    states for every machine it allows (the fewest counts). Silent when the
    count is not known (`--gpus all`, `count: all`, a variable, no limit),
    with `--nnodes` above 1, with the Ray or external-launcher backends, and
    for data parallelism spread over nodes (`--data-parallel-rank`,
    `--headless`, `--data-parallel-address`, external or hybrid load
    balancing).

    ## vLLM source
    `ParallelConfig.__post_init__`, vllm/config/parallel.py: the check
    runs when no executor backend is set, the world size across data
    parallelism is above 1, the platform is CUDA and `--nnodes` is 1.
    """

    code = "SL801"
    name = "world-size-exceeds-gpus"
    category = Category.DEPLOYMENT
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--tensor-parallel-size"
    partners = ("--pipeline-parallel-size", "--data-parallel-size")
    requires = ("@deployment", "CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES")
    fixes = frozenset({Applicability.UNSAFE})
    reads = frozenset({"tensor_parallel_size", "pipeline_parallel_size", "prefill_context_parallel_size",
                       "data_parallel_size", "data_parallel_size_local", "distributed_executor_backend",
                       "nnodes", "data_parallel_backend", "deployment", *_DP_ELSEWHERE,
                       "CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not_vllm_argv(ctx):
            return
        inv = ctx.invocation
        sizes = parallel(ctx)
        if sizes is None:
            return
        backend = value_of(inv, "distributed_executor_backend")
        if not backend.known and written(inv, "distributed_executor_backend"):
            return
        if backend.value in ("ray", "external_launcher", "uni"):
            return
        nnodes, _ = written_int(ctx, "nnodes")
        if nnodes is None or nnodes > 1:
            return
        got = gpu_count(ctx)
        if got is None:
            return
        count, machine = got
        if sizes.world > count:
            certain = backend.value is None and machine.vendor == "nvidia"
            message = vllm_text(ctx, _CHECK.key, sizes.world, count)
            if message is not None:
                # vLLM's message goes on, over several lines, with what to
                # do for Ray or --nnodes (the table keeps it on one line: not
                # the exact text to join records on).
                message = message.split(" If this is intentional")[0]
            shown = (f"{sizes.text()} needs {sizes.world} GPUs, but {self._gets(machine)} {count}"
                     + (f": vLLM stops with \"{message}\"" if certain and message else
                        "; vLLM fails when it starts the workers"))
            dep = deployment(ctx)
            if dep is not None and dep.nodes is not None and isinstance(dep.nodes.value, int) and dep.nodes.value > 1:
                shown += (f"; to spread it over the {dep.nodes.value} nodes, set --distributed-executor-backend ray "
                          f"(or --nnodes)")
            yield self._finding(ctx, sizes.flags, shown, machine, count, sizes.world, None,
                                Severity.ERROR if certain else Severity.WARNING)
            return
        dp, dp_flag = written_int(ctx, "data_parallel_size")
        local, local_flag = written_int(ctx, "data_parallel_size_local")
        if dp is None or dp <= 1:
            return
        if value_of(inv, "data_parallel_backend").value == "ray":
            return
        if local is None:
            if local_flag is not None or any(written(inv, d) for d in _DP_ELSEWHERE if ctx.knowledge.by_dest.get(d)):
                return
            local, local_flag = dp, dp_flag
        need = sizes.world * local
        if need <= count:
            return
        flags = tuple(f for f in (local_flag, *sizes.flags) if f is not None)
        shown = (f"{local} data parallel engines × world size {sizes.world} need {need} GPUs on this node, "
                 f"but {self._gets(machine)} {count}; vLLM fails when it starts the engines")
        yield self._finding(ctx, flags, shown, machine, count, need, None, Severity.WARNING)

    @staticmethod
    def _gets(machine) -> str:
        facts = machine.count_from
        said = facts[0].said if facts else "the file"
        return f"{said} gives it"

    def _finding(self, ctx, flags, shown, machine, count, need, vllm_message, severity) -> Finding:
        flag = flags[0] if flags else None
        span, path, canonical = where(ctx, flag)
        rel = related(ctx, machine.count_from, f"{{said}}: {count} GPU{'s' if count != 1 else ''}")
        fixes = []
        fact = machine.count_from[0] if len(machine.count_from) == 1 else None
        dep = deployment(ctx)
        if dep is not None and dep.nodes is not None and dep.nodes.value != 1:
            fact = None  # more GPUs per node is not the fix of a job across nodes
        if fact is not None and fact.said not in ("`CUDA_VISIBLE_DEVICES`", "`HIP_VISIBLE_DEVICES`",
                                                  "`ROCR_VISIBLE_DEVICES`"):
            text = ctx.text_of()
            if text is not None and text[fact.span.start:fact.span.end] == str(count):
                fixes.append(Fix(f"Request {need} GPUs", [Edit(ctx.path, fact.span, str(need))],
                                 Applicability.UNSAFE))
        return Finding(span, shown, flag=canonical, severity=severity, related=rel, fixes=fixes,
                       vllm_message=vllm_message, path=path,
                       data={"vllm_source": vllm_source(ctx, _CHECK.key)})
