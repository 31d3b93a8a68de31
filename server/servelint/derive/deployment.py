"""Where a launch runs, as its file says: how many GPUs its process sees,
of which kind and memory, its ``/dev/shm``, the ports traffic comes to.

The parsers put what the file writes next to each launch
(``Launch.deployment``, ``Launch.linked``: see ``model.Deployment``); the
functions here turn it into what vLLM will find on the machine, and say
``None`` (unknown) whenever the file does not show it.  A file may allow
several machines (a SkyPilot task's ``any_of``, a node affinity naming
several GPU products): ``machines`` lists them, and a check must hold on
every one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..knowledge import gpus as gpu_table
from ..model import Deployment, EnvVar, Fact, GpuRequest
from .base import FrozenValue

if TYPE_CHECKING:  # pragma: no cover
    from .view import View

# Docker's default size of a container's /dev/shm ("If you omit the size
# entirely, the system uses 64m": docs.docker.com/reference/cli/docker/
# container/run/#shm-size); containerd and CRI-O give Kubernetes pods the
# same 64 MiB unless a memory-backed emptyDir is mounted there.
CONTAINER_SHM_DEFAULT = 64 << 20

# The variables that choose which of the machine's GPUs a process sees:
# CUDA's, and ROCm's (vllm/platforms/rocm.py reads both).
VISIBLE_DEVICES = ("CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES")


def deployment(ctx: "View") -> Deployment | None:
    """The launch's own deployment facts over what the rest of its document says."""
    launch = ctx.invocation.launch
    own, linked = launch.deployment, launch.linked
    if own is None:
        return linked
    return own.over(linked)


class Machine(FrozenValue):
    """One machine the file lets the launch run on, as far as it says.

    ``count``: the GPUs the launch's processes see (None: not known);
    ``count_from``: the facts that decided it (the GPU limit, a
    ``CUDA_VISIBLE_DEVICES`` before the launch...); ``gpu``: what the GPU's
    name may mean (None: no name); ``memory_gib``: per GPU, the most the
    candidates have (None: not known); ``vendor``.
    """

    __slots__ = _fields = ("count", "count_from", "gpu", "kind", "memory_gib", "memory_from", "vendor")

    def __init__(self, count, count_from, gpu, kind, memory_gib, memory_from, vendor) -> None:
        s = object.__setattr__
        s(self, "count", count)
        s(self, "count_from", count_from)
        s(self, "gpu", gpu)
        s(self, "kind", kind)
        s(self, "memory_gib", memory_gib)
        s(self, "memory_from", memory_from)
        s(self, "vendor", vendor)

    @property
    def capability(self) -> tuple[int, int] | None:
        """The NVIDIA compute capability every candidate GPU has, or None."""
        if self.gpu is None or self.vendor not in (None, "nvidia"):
            return None
        return self.gpu.capability()

    def label(self) -> str:
        """The GPU for messages: "A100-80GB", or "GPU" when the file names none."""
        return self.gpu.label() if self.gpu is not None and self.gpu.known else "GPU"


def visible_devices(ctx: "View") -> tuple[EnvVar, int | None] | None:
    """The ``CUDA_VISIBLE_DEVICES`` (or ROCm's) the launch sees and how many
    devices it lists; (var, None) when its value is not known; None when
    the launch sees none of them."""
    env = ctx.invocation.env
    for name in VISIBLE_DEVICES:
        var = env.get(name)
        if var is None:
            continue
        if var.value is None or not var.exact:
            return var, None
        value = var.value.strip()
        if value.lower() in ("all", "none", "void") or "$" in value:
            return var, None
        return var, len([p for p in value.split(",") if p.strip()])
    return None


def _request_machine(req: GpuRequest) -> Machine:
    count = req.count.value if req.count is not None and isinstance(req.count.value, int) else None
    count_from = (req.count,) if req.count is not None else ()
    match = None
    if req.kind is not None and isinstance(req.kind.value, str):
        match = gpu_table.lookup(req.kind.value, req.vocabulary)
    memory = None
    memory_from: tuple = ()
    if req.memory_gib is not None and isinstance(req.memory_gib.value, (int, float)):
        memory, memory_from = float(req.memory_gib.value), (req.memory_gib,)
    elif match is not None and match.known:
        memory = match.memory_gib()
        memory_from = (req.kind,) if req.kind is not None else ()
    vendor = req.vendor or (match.vendor() if match is not None and match.known else None)
    return Machine(count, count_from, match if match is not None and match.known else None,
                   req.kind, memory, memory_from, vendor)


def machines(ctx: "View") -> tuple[Machine, ...]:
    """Every machine the launch's file lets it run on; empty when the file
    says nothing of its GPUs.

    A ``CUDA_VISIBLE_DEVICES`` (or ``HIP_``/``ROCR_VISIBLE_DEVICES``) set
    for the launch narrows what its processes see to the devices it lists
    (``_cuda_device_count_stateless``, vllm/platforms/cuda.py, counts them
    from the variable): the machine's count becomes the smaller of the two;
    unknown when the variable's value is.
    """
    dep = deployment(ctx)
    found = [_request_machine(r) for r in dep.gpus] if dep is not None else []
    visible = visible_devices(ctx)
    if visible is not None:
        var, n = visible
        fact = Fact(n, var.span, f"`{var.name}`") if var.span is not None else None
        if not found:
            found = [Machine(n, (fact,) if fact else (), None, None, None, (), None)]
        else:
            out = []
            for m in found:
                if n is None or m.count is None:
                    count, count_from = None, m.count_from
                elif n < m.count:
                    count, count_from = n, ((fact,) if fact else ())
                else:
                    count, count_from = m.count, m.count_from
                out.append(Machine(count, count_from, m.gpu, m.kind, m.memory_gib, m.memory_from, m.vendor))
            found = out
    return tuple(found)


def gpu_count(ctx: "View") -> tuple[int, Machine] | None:
    """The fewest GPUs any machine gives the launch, and that machine; None
    when the file does not say it for every machine."""
    ms = machines(ctx)
    if not ms or any(m.count is None or m.count <= 0 for m in ms):
        return None
    fewest = min(ms, key=lambda m: m.count)
    return fewest.count, fewest


def shm_bytes(ctx: "View") -> tuple[int | str, Fact | None] | None:
    """The launch's ``/dev/shm``: ("host", fact) when it shares the host's
    IPC (``--ipc=host``, compose ``ipc: host``, a pod's ``hostIPC``), its
    size in bytes and the fact that sets it, or the container default
    (64 MiB, no fact) when it runs in a container that sets neither;
    None when not known (not in a container, a size the file leaves to a
    variable, a memory-backed emptyDir without a limit)."""
    dep = deployment(ctx)
    if dep is None:
        return None
    if dep.shm is not None:
        if dep.shm.value == "host" or isinstance(dep.shm.value, int):
            return dep.shm.value, dep.shm
        return None
    if dep.runtime == "container":
        return CONTAINER_SHM_DEFAULT, None
    return None
