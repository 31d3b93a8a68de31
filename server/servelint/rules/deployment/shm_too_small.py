"""SL807: tensor or pipeline parallelism in a container whose /dev/shm is too small."""

from __future__ import annotations

from typing import Iterable

from ...derive.deployment import CONTAINER_SHM_DEFAULT, deployment, gpu_count, shm_bytes
from ...derive.flags import value_of, written
from ...diagnostics import Applicability, Category, Edit, Fix, Severity
from ...edits import line_bounds
from ...knowledge.validators import VllmCheck
from ...model import Form
from ...text import Span
from ..base import Context, Finding, Rule, vllm_source
from ._shared import not_vllm_argv, MIB, parallel, related, where, written_int

# The message names the allocation from 0.31.0.
_CHECK = VllmCheck(
    "deployment.shm", ("Insufficient space in {} for {}: ", "Insufficient space in {}: {} MiB "),
    "vllm/distributed/device_communicators/shm_broadcast.py",
)

# MessageQueue's defaults for the executor's broadcast queue
# (shm_broadcast.py: max_chunks=10; multiproc_executor.py: max_chunk_bytes =
# VLLM_MQ_MAX_CHUNK_BYTES_MB MiB, 16 unless set, vllm/envs.py).
_CHUNKS = 10
_CHUNK_MB_DEFAULT = 16


class ShmTooSmall(Rule):
    """`--tensor-parallel-size` or `--pipeline-parallel-size` above 1 in a
    container whose `/dev/shm` cannot hold vLLM's message buffer.

    ## What it does
    Reports a world size above 1 (TP × PP on one node) in a container that
    neither shares the host's IPC (`--ipc=host`, compose `ipc: host`, a
    pod's `hostIPC`) nor gives `/dev/shm` room for vLLM's broadcast queue:
    10 chunks of 16 MiB (`VLLM_MQ_MAX_CHUNK_BYTES_MB`), 160 MiB. Docker,
    compose and Kubernetes give a container 64 MiB unless the file sets
    `--shm-size`, `shm_size`, or mounts a memory-backed `emptyDir` at
    `/dev/shm`.

    ## Why
    The multiprocessing executor puts its workers' message queue in shared
    memory and, before creating it, checks the free space: "Insufficient
    space in /dev/shm for shared-memory allocation: 160 MiB required, 64
    MiB free. Increase /dev/shm (e.g. --shm-size or --ipc=host)." vLLM's
    docs ask for `--ipc=host` or `--shm-size` for the same reason.

    ## Example
    ```sh
    docker run --gpus all vllm/vllm-openai:v0.33.0 meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 4
    ```

    ## Fix
    `docker run --ipc=host` (or `--shm-size 16g`); compose `ipc: host` (or
    `shm_size`); in Kubernetes an `emptyDir: {medium: Memory}` volume
    mounted at `/dev/shm`. The fix adds `--ipc=host` to `docker run` and
    `ipc: host` to a compose service.

    ## Fix safety
    Unsafe: the container then shares the host's IPC namespace.

    ## Evidence
    A container form (docker/podman run, compose, Kubernetes) and the
    parallel sizes as written. An error when the file sets the too small
    size; a warning when the runtime's default (64 MiB) decides, which a
    Docker daemon may change (`--default-shm-size`). Silent for a size the file leaves to a
    variable, a memory-backed `emptyDir` without a size limit, `--nnodes`
    above 1 and other executor backends than multiprocessing.

    ## vLLM source
    `check_shm_free_space`, called by `MessageQueue` (from 0.27.0; earlier
    releases do not check and fail later, on a bus error).
    """

    code = "SL807"
    name = "shm-too-small"
    category = Category.DEPLOYMENT
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--tensor-parallel-size"
    requires = ("@deployment", "CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES")
    fixes = frozenset({Applicability.UNSAFE})
    reads = frozenset({"tensor_parallel_size", "pipeline_parallel_size", "prefill_context_parallel_size",
                       "distributed_executor_backend", "nnodes", "deployment", "VLLM_MQ_MAX_CHUNK_BYTES_MB"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not_vllm_argv(ctx):
            return
        inv = ctx.invocation
        sizes = parallel(ctx)
        if sizes is None or sizes.world <= 1:
            return
        backend = value_of(inv, "distributed_executor_backend")
        if backend.value not in (None, "mp") or (not backend.known and written(inv, "distributed_executor_backend")):
            return
        nnodes, _ = written_int(ctx, "nnodes")
        if nnodes is None or nnodes > 1:
            return
        got = gpu_count(ctx)
        if got is not None and sizes.world > got[0]:
            return  # vLLM stops before, on the world size (SL801)
        shm = shm_bytes(ctx)
        if shm is None or shm[0] == "host":
            return
        size, fact = shm
        chunk_mb = _chunk_mb(ctx)
        if chunk_mb is None:
            return
        required = (chunk_mb * (1 << 20) + 1 + sizes.world) * _CHUNKS
        if size >= required:
            return
        flag = sizes.flags[0] if sizes.flags else None
        span, path, canonical = where(ctx, flag)
        have = f"{size / MIB:.0f} MiB" + (f" ({fact.said})" if fact is not None else
                                           " (the container runtime's default)")
        message = (f"{sizes.text()} runs {sizes.world} workers that share a {required / MIB:.0f} MiB message buffer "
                   f"in /dev/shm, but the container's /dev/shm is {have}: vLLM stops with \"Insufficient space in "
                   f"/dev/shm\"; share the host's IPC (--ipc=host) or enlarge /dev/shm")
        rel = related(ctx, [fact], "{said}") if fact is not None else []
        dep = deployment(ctx)
        if fact is None and dep is not None and dep.span is not None:
            rel.append(_related_at(ctx, dep))
        # A size the file writes is what the container gets; the runtime's
        # default can be changed where the file does not show it (dockerd's
        # --default-shm-size).
        severity = Severity.ERROR if fact is not None else Severity.WARNING
        yield Finding(span, message, flag=canonical, severity=severity, related=rel,
                      fixes=_fixes(ctx, dep, fact), path=path,
                      data={"vllm_source": vllm_source(ctx, _CHECK.key), "shm_required": required,
                            "shm_bytes": size, "shm_default": fact is None and size == CONTAINER_SHM_DEFAULT})


def _chunk_mb(ctx: Context) -> int | None:
    var = ctx.invocation.env.get("VLLM_MQ_MAX_CHUNK_BYTES_MB")
    if var is None:
        return _CHUNK_MB_DEFAULT
    if var.value is None or not var.exact:
        return None
    try:
        return int(var.value)
    except ValueError:
        return None


def _related_at(ctx: Context, dep):
    from ...diagnostics import Related

    return Related(ctx.path, dep.span, f"{dep.said}: no --ipc=host, no /dev/shm size")


def _fixes(ctx: Context, dep, fact) -> list[Fix]:
    """``--ipc=host`` after ``docker run``; ``ipc: host`` in a compose service."""
    if dep is None or dep.span is None or fact is not None:
        return []
    text = ctx.text_of()
    if text is None:
        return []
    form = ctx.invocation.launch.form
    if dep.said.startswith("`docker") or dep.said.startswith("`podman"):
        return [Fix("Share the host's IPC (--ipc=host)", [Edit(ctx.path, Span(dep.span.end, dep.span.end), " --ipc=host")],
                    Applicability.UNSAFE)]
    if form is Form.COMPOSE and dep.said.startswith("service") and text[dep.span.start:dep.span.start + 1] not in "{[":
        start, _ = line_bounds(text, dep.span.start)
        indent = text[start:dep.span.start]
        if indent.strip():
            return []
        at = Span(dep.span.start, dep.span.start)
        return [Fix("Share the host's IPC (ipc: host)", [Edit(ctx.path, at, "ipc: host\n" + indent)],
                    Applicability.UNSAFE)]
    return []
