"""Where a launch runs, as its file writes it: the facts of ``model.Deployment``.

Each form's parser calls one reader here with what it already has (the YAML
node of a container or a service, the options of ``docker run`` or
``srun``); the reader only records what is written, with its span.  A
value the file leaves to a variable or a template is a ``Fact`` whose value
is None; a thing the file does not mention stays None.

* Kubernetes (``Pods``): a container's ``resources`` (``limits``, else
  ``requests``) for ``nvidia.com/gpu``, ``amd.com/gpu``, Intel's and
  Gaudi's devices and MIG slices; the pod's ``nodeSelector`` and required
  node affinity on the GPU labels; ``hostIPC`` or a memory-backed
  ``emptyDir`` mounted at ``/dev/shm``; ``containerPort``s and probes.
  A Service in the same file whose selector matches the pod adds its
  ``targetPort``s (``link_services``: the document's other documents).
* compose (``of_compose_service``): device reservations, ``gpus:``,
  ``runtime: nvidia`` with ``NVIDIA_VISIBLE_DEVICES``, ``ipc``,
  ``shm_size``, ``ports``, ``expose``, a healthcheck URL.
* ``docker run`` / ``podman run`` (``deployment_argv.of_docker_run``): ``--gpus``,
  ``--runtime nvidia``, ``--ipc``, ``--shm-size``, ``-p``, ``--network``.
* Slurm (``deployment_argv``): ``srun`` options (``of_srun``) and the script's ``#SBATCH``
  lines (``sbatch_header``): ``--gres=gpu[:type]:N``, ``--gpus``,
  ``--gpus-per-node``, ``--nodes``.
* SkyPilot (``of_skypilot``): ``resources.accelerators`` (a name, a
  mapping or a list of alternatives, ``any_of``/``ordered``),
  ``num_nodes``, ``resources.ports``.
"""

from __future__ import annotations

import re
from typing import Iterable

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..model import Deployment, EnvVar, Fact, GpuRequest, Launch, Port
from . import yamlnodes as yn
from .deployment_argv import _container_side, _int, _visible_count, docker_bytes

# Kubernetes extended resources that are GPUs, and their vendor.
_K8S_GPU_RESOURCES = {
    "nvidia.com/gpu": "nvidia", "amd.com/gpu": "amd", "gpu.intel.com/i915": "intel",
    "gpu.intel.com/xe": "intel", "habana.ai/gaudi": "habana",
}
_MIG = re.compile(r"nvidia\.com/mig-(\d+)g\.(\d+)gb$")

# Node labels that name the GPU, and the vocabulary of their values
# (knowledge.gpus.lookup); None: a product name (GPU feature discovery
# writes nvidia-smi's name with dashes, "NVIDIA-A100-SXM4-80GB").
_GPU_LABELS = {
    "nvidia.com/gpu.product": None,
    "cloud.google.com/gke-accelerator": "gke",
    "karpenter.k8s.aws/instance-gpu-name": "karpenter",
    "node.kubernetes.io/instance-type": "instance-type",
    "beta.kubernetes.io/instance-type": "instance-type",
    "amd.com/gpu.product-name": None,
}
# Node labels that give the GPU's memory, in MiB.
_MEMORY_LABELS = ("nvidia.com/gpu.memory", "karpenter.k8s.aws/instance-gpu-memory")

_PROBES = ("livenessProbe", "readinessProbe", "startupProbe")
_PROBE_NAMES = {"livenessProbe": "the liveness probe", "readinessProbe": "the readiness probe",
                "startupProbe": "the startup probe"}

# Kubernetes quantities (k8s.io/apimachinery resource.Quantity) and Docker's
# byte sizes (``deployment_argv.docker_bytes``).
_K8S_UNITS = {"": 1, "k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "Ki": 1 << 10, "Mi": 1 << 20,
              "Gi": 1 << 30, "Ti": 1 << 40}


# -- values ------------------------------------------------------------------------


def k8s_quantity(text: str) -> int | None:
    """Bytes of a Kubernetes quantity ("16Gi", "512Mi", "1G"), or None."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kMGT]i?|)\s*", text)
    if not m or m.group(2) not in _K8S_UNITS:
        return None
    return int(float(m.group(1)) * _K8S_UNITS[m.group(2)])


def _scalar_fact(src: yn.Src, node: Node | None, value, said: str) -> Fact | None:
    if node is None:
        return None
    note = None if value is not None else f"{said} is not a value servelint can read"
    return Fact(value, src.span(node), said, note)


# -- Kubernetes ----------------------------------------------------------------------


class Pods:
    """The pods of one Kubernetes document, read as ``parse_k8s`` walks its
    mappings: ``see`` every mapping (parents before children), then
    ``attach`` the deployment of each container's launches."""

    def __init__(self, src: yn.Src, root: Node | None) -> None:
        self.src = src
        self._labels: dict[int, dict[str, str]] = {}
        meta = yn.get(root, "metadata")
        self.namespace = yn.scalar_text(yn.get(meta, "namespace")) or ""
        # A LeaderWorkerSet runs each group on ``size`` pods (nodes).
        self.nodes = None
        if yn.scalar_text(yn.get(root, "kind")) == "LeaderWorkerSet":
            size = yn.get(yn.get(yn.get(root, "spec"), "leaderWorkerTemplate"), "size")
            if isinstance(size, ScalarNode):
                self.nodes = Fact(_int(size.value), src.span(size), "the LeaderWorkerSet's `size`")

    def see(self, node: MappingNode, keys: dict) -> None:
        """Remember the labels of a pod template (``metadata`` beside ``spec``)."""
        spec, meta = keys.get("spec"), keys.get("metadata")
        if spec is None or meta is None:
            return
        labels = yn.get(meta[1], "labels")
        if isinstance(labels, MappingNode):
            self._labels[id(spec[1])] = {yn.scalar_text(k) or "": yn.scalar_text(v) or "" for k, v in yn.items(labels)}

    def labels(self, pod: MappingNode) -> dict[str, str]:
        return self._labels.get(id(pod), {})

    def attach(self, launches: list[Launch], pod: MappingNode, container: MappingNode) -> None:
        if not launches:
            return
        dep = of_container(self.src, pod, container)
        if self.nodes is not None:
            dep = Deployment(dep.runtime, dep.gpus, dep.shm, self.nodes, dep.ports, dep.span, dep.said)
        labels = self.labels(pod)
        key = (self.namespace, frozenset(labels.items())) if labels else None
        for launch in launches:
            if launch.deployment is None:
                launch.deployment = dep
            launch.pod = key


def of_container(src: yn.Src, pod: MappingNode, c: MappingNode) -> Deployment:
    """A container's deployment facts, with its pod's."""
    name = yn.scalar_text(yn.get(c, "name")) or ""
    # A container without an image is a part of one (a kustomize patch, an
    # operator's override): the rest of the pod, its volumes, is elsewhere.
    whole = yn.get(c, "image") is not None
    return Deployment(
        runtime="container" if whole else "unknown",
        gpus=_k8s_gpus(src, pod, c),
        shm=_k8s_shm(src, pod, c),
        ports=_k8s_ports(src, pod, c),
        span=src.span(c),
        said=f"container `{name}`" if name else "the container",
    )


def _k8s_gpus(src: yn.Src, pod: MappingNode, c: MappingNode) -> tuple[GpuRequest, ...]:
    res = yn.get(c, "resources")
    count: Fact | None = None
    vendor = None
    memory: Fact | None = None
    for part in ("limits", "requests"):
        for k, v in yn.items(yn.get(res, part)):
            key = yn.scalar_text(k) or ""
            mig = _MIG.fullmatch(key)
            if key in _K8S_GPU_RESOURCES or mig:
                said = f"the `{key}` {part[:-1]}"
                n = _int(yn.scalar_text(v))
                count = _scalar_fact(src, v, n if n else None, said)
                vendor = _K8S_GPU_RESOURCES.get(key, "nvidia")
                if mig:
                    memory = Fact(float(mig.group(2)), src.span(k), f"the MIG profile `{key}`")
                break
        if count is not None:
            break
    kinds = _k8s_gpu_kinds(src, pod)
    mem_label = _k8s_memory_label(src, pod)
    if memory is None:
        memory = mem_label
    if count is None and not kinds:
        return ()
    if not kinds:
        return (GpuRequest(count, None, None, vendor, memory),)
    return tuple(GpuRequest(count, kind, vocab, vendor, memory) for kind, vocab in kinds)


def _k8s_gpu_kinds(src: yn.Src, pod: MappingNode) -> list[tuple[Fact, str | None]]:
    """The GPU names a pod is pinned to: its ``nodeSelector``, else the values
    of a GPU label every required node-affinity term constrains with ``In``."""
    sel = yn.get(pod, "nodeSelector")
    for k, v in yn.items(sel):
        key = yn.scalar_text(k) or ""
        if key in _GPU_LABELS and isinstance(v, ScalarNode):
            return [(Fact(v.value or None, src.span(v), f"the `{key}` node selector"), _GPU_LABELS[key])]
    terms = yn.get(yn.get(yn.get(yn.get(pod, "affinity"), "nodeAffinity"),
                          "requiredDuringSchedulingIgnoredDuringExecution"), "nodeSelectorTerms")
    if not isinstance(terms, SequenceNode) or not terms.value:
        return []
    found: list[tuple[Fact, str | None]] = []
    label = None
    for term in terms.value:
        got = None
        exprs = yn.get(term, "matchExpressions")
        for e in exprs.value if isinstance(exprs, SequenceNode) else ():
            key = yn.scalar_text(yn.get(e, "key")) or ""
            if key in _GPU_LABELS and yn.scalar_text(yn.get(e, "operator")) == "In":
                values = yn.get(e, "values")
                if isinstance(values, SequenceNode) and values.value and (label in (None, key)):
                    label = key
                    got = [(Fact(v.value or None, src.span(v), f"the `{key}` node affinity"), _GPU_LABELS[key])
                           for v in values.value if isinstance(v, ScalarNode)]
        if not got:
            return []  # a term that lets the pod land on any GPU
        found.extend(got)
    return found


def _k8s_memory_label(src: yn.Src, pod: MappingNode) -> Fact | None:
    for k, v in yn.items(yn.get(pod, "nodeSelector")):
        key = yn.scalar_text(k) or ""
        if key in _MEMORY_LABELS and isinstance(v, ScalarNode):
            mib = _int(v.value)
            return Fact(mib / 1024 if mib else None, src.span(v), f"the `{key}` node selector")
    return None


def _k8s_shm(src: yn.Src, pod: MappingNode, c: MappingNode) -> Fact | None:
    host_ipc = yn.get(pod, "hostIPC")
    if isinstance(host_ipc, ScalarNode) and yn.scalar_value(host_ipc) is True:
        return Fact("host", src.span(host_ipc), "`hostIPC: true`")
    mounts = yn.get(c, "volumeMounts")
    name = None
    for m in mounts.value if isinstance(mounts, SequenceNode) else ():
        if (yn.scalar_text(yn.get(m, "mountPath")) or "").rstrip("/") == "/dev/shm":
            name = yn.scalar_text(yn.get(m, "name"))
            break
    if name is None:
        return None
    volumes = yn.get(pod, "volumes")
    for v in volumes.value if isinstance(volumes, SequenceNode) else ():
        if yn.scalar_text(yn.get(v, "name")) != name:
            continue
        empty = yn.get(v, "emptyDir")
        if isinstance(empty, MappingNode) and yn.scalar_text(yn.get(empty, "medium")) == "Memory":
            limit = yn.get(empty, "sizeLimit")
            if isinstance(limit, ScalarNode):
                return Fact(k8s_quantity(limit.value), src.span(limit), f"the `{name}` emptyDir's sizeLimit")
            # No limit: as much as the node's memory the pod may use.
            return Fact(None, src.span(empty), f"the `{name}` emptyDir", "sized by the node's memory")
        if yn.get(v, "hostPath") is not None:
            return Fact("host", src.span(v), f"the `{name}` hostPath volume")
        return Fact(None, src.span(v), f"the `{name}` volume", "not a memory-backed emptyDir")
    return None


def _port_value(src: yn.Src, node: Node | None, said: str, role: str) -> Port | None:
    if not isinstance(node, ScalarNode):
        return None
    n = _int(node.value)
    name = None if n is not None else (node.value or None)
    if name is not None and ("$" in name or "{{" in name or "\ue000" in name):
        name = None  # a variable or template: neither a number nor a port's name
    return Port(n, src.span(node), said, role, name)


def _container_ports(src: yn.Src, c: MappingNode, role: str, said: str) -> list[Port]:
    out = []
    ports = yn.get(c, "ports")
    for p in ports.value if isinstance(ports, SequenceNode) else ():
        node = yn.get(p, "containerPort")
        if not isinstance(node, ScalarNode):
            continue
        n = _int(node.value)
        out.append(Port(n, src.span(node), said, role, yn.scalar_text(yn.get(p, "name"))))
    return out


def _k8s_ports(src: yn.Src, pod: MappingNode, c: MappingNode) -> tuple[Port, ...]:
    out = _container_ports(src, c, "listen", "containerPort")
    for probe in _PROBES:
        node = yn.get(c, probe)
        for kind in ("httpGet", "tcpSocket", "grpc"):
            port = _port_value(src, yn.get(yn.get(node, kind), "port"), _PROBE_NAMES[probe], "probe")
            if port is not None:
                out.append(port)
    # Ports other containers of the pod declare: traffic for a sidecar.
    for key in ("containers", "initContainers"):
        lst = yn.get(pod, key)
        for other in lst.value if isinstance(lst, SequenceNode) else ():
            if other is not c and isinstance(other, MappingNode):
                name = yn.scalar_text(yn.get(other, "name")) or "another container"
                out.extend(_container_ports(src, other, "sidecar", f"container `{name}`'s containerPort"))
    return tuple(out)


class Service:
    """A Kubernetes Service of the document: which pods it selects and the
    ports it sends their traffic to."""

    __slots__ = ("namespace", "selector", "ports")

    def __init__(self, namespace: str, selector: frozenset, ports: list[Port]) -> None:
        self.namespace, self.selector, self.ports = namespace, selector, ports

    def selects(self, pod: tuple) -> bool:
        """Whether it selects the pod ``(namespace, frozenset of its labels)``."""
        return bool(self.selector) and pod[0] == self.namespace and self.selector <= pod[1]

    def moved(self, d: int) -> "Service":
        return Service(self.namespace, self.selector, [p.moved(lambda s: s.shifted(d)) for p in self.ports])


def services(src: yn.Src, root: Node | None) -> list[Service]:
    """The Services of one document (a ``Service``, or the items of a ``List``)."""
    out: list[Service] = []
    if not isinstance(root, MappingNode):
        return out
    kind = yn.scalar_text(yn.get(root, "kind"))
    if kind == "List":
        items = yn.get(root, "items")
        for item in items.value if isinstance(items, SequenceNode) else ():
            out.extend(services(src, item))
        return out
    if kind != "Service":
        return out
    meta = yn.get(root, "metadata")
    name = yn.scalar_text(yn.get(meta, "name")) or ""
    spec = yn.get(root, "spec")
    selector = frozenset((yn.scalar_text(k) or "", yn.scalar_text(v) or "")
                         for k, v in yn.items(yn.get(spec, "selector")))
    ports: list[Port] = []
    lst = yn.get(spec, "ports")
    for p in lst.value if isinstance(lst, SequenceNode) else ():
        target = yn.get(p, "targetPort") or yn.get(p, "port")
        port = _port_value(src, target, f"the Service `{name}`" if name else "the Service", "service")
        if port is not None:
            ports.append(port)
    if ports:
        out.append(Service(yn.scalar_text(yn.get(meta, "namespace")) or "", selector, ports))
    return out


def link_services(launches: Iterable[Launch], found: list[Service]) -> None:
    """Set each Kubernetes launch's ``linked`` facts: the ports of the
    Services that select its pod (``None`` when none does)."""
    # Each Service under one of its selector's labels: a pod looks only at
    # those under its own labels (a file of many Deployments and Services is
    # linked on every keystroke).
    index: dict = {}
    for svc in found:
        if svc.selector:
            index.setdefault(min(svc.selector), []).append(svc)
    for launch in launches:
        pod = launch.pod
        linked = None
        if pod is not None and index:
            chosen = {id(svc) for item in pod[1] for svc in index.get(item, ()) if svc.selects(pod)}
            if chosen:  # in the file's order, whatever the labels' order
                linked = Deployment(ports=tuple(p for svc in found if id(svc) in chosen for p in svc.ports))
        if launch.linked != linked:
            launch.linked = linked


# -- compose ---------------------------------------------------------------------------


_HEALTH_URL = re.compile(r"(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]):(\d+)")


def of_compose_service(src: yn.Src, name: str, svc: MappingNode, env: dict[str, EnvVar]) -> Deployment:
    """A compose service's deployment facts."""
    return Deployment(
        runtime="container",
        gpus=_compose_gpus(src, svc, env),
        shm=_compose_shm(src, svc),
        ports=_compose_ports(src, svc),
        span=src.span(svc),
        said=f"service `{name}`" if name else "the service",
    )


def _compose_gpus(src: yn.Src, svc: MappingNode, env: dict[str, EnvVar]) -> tuple[GpuRequest, ...]:
    devices = yn.get(yn.get(yn.get(yn.get(svc, "deploy"), "resources"), "reservations"), "devices")
    for d in devices.value if isinstance(devices, SequenceNode) else ():
        caps = yn.get(d, "capabilities")
        cap_texts = [yn.scalar_text(x) for x in caps.value] if isinstance(caps, SequenceNode) else []
        driver = yn.scalar_text(yn.get(d, "driver"))
        if "gpu" not in cap_texts and driver not in ("nvidia", "amd"):
            continue
        vendor = "amd" if driver == "amd" else "nvidia"
        ids = yn.get(d, "device_ids")
        if isinstance(ids, SequenceNode):
            return (GpuRequest(Fact(len(ids.value), src.span(ids), "the service's `device_ids`"), vendor=vendor),)
        count = yn.get(d, "count")
        if isinstance(count, ScalarNode):
            n = _int(count.value)
            return (GpuRequest(Fact(n or None, src.span(count), "the service's device `count`",
                                    None if n else "all the host's GPUs"), vendor=vendor),)
        # No count, no ids: every GPU (compose's default).
        return (GpuRequest(Fact(None, src.span(d), "the service's GPU reservation", "all the host's GPUs"),
                           vendor=vendor),)
    gpus = yn.get(svc, "gpus")
    if isinstance(gpus, SequenceNode):
        return (GpuRequest(Fact(len(gpus.value), src.span(gpus), "the service's `gpus`"), vendor="nvidia"),)
    if isinstance(gpus, ScalarNode):
        return (GpuRequest(Fact(None, src.span(gpus), "the service's `gpus`", "all the host's GPUs"),
                           vendor="nvidia"),)
    runtime = yn.get(svc, "runtime")
    if yn.scalar_text(runtime) == "nvidia":
        var = env.get("NVIDIA_VISIBLE_DEVICES")
        if var is not None and var.span is not None:
            n = _visible_count(var)
            return (GpuRequest(Fact(n, var.span, "`NVIDIA_VISIBLE_DEVICES`"), vendor="nvidia"),)
    return ()


def _compose_shm(src: yn.Src, svc: MappingNode) -> Fact | None:
    ipc = yn.get(svc, "ipc")
    if isinstance(ipc, ScalarNode) and ipc.value == "host":
        return Fact("host", src.span(ipc), "`ipc: host`")
    size = yn.get(svc, "shm_size")
    if isinstance(size, ScalarNode):
        if "$" in size.value:
            return Fact(None, src.span(size), "`shm_size`", "set by compose interpolation")
        return Fact(docker_bytes(size.value), src.span(size), f"`shm_size: {size.value}`")
    return None


def _compose_ports(src: yn.Src, svc: MappingNode) -> tuple[Port, ...]:
    out: list[Port] = []
    if yn.scalar_text(yn.get(svc, "network_mode")) == "host":
        return ()
    ports = yn.get(svc, "ports")
    for p in ports.value if isinstance(ports, SequenceNode) else ():
        if isinstance(p, MappingNode):
            target = yn.get(p, "target")
            if isinstance(target, ScalarNode):
                out.append(Port(_int(target.value), src.span(target), "the `ports:` mapping", "publish"))
        elif isinstance(p, ScalarNode):
            n = _container_side(p.value)
            out.append(Port(n, src.span(p), f"the `ports:` mapping `{p.value}`", "publish"))
    expose = yn.get(svc, "expose")
    for p in expose.value if isinstance(expose, SequenceNode) else ():
        if isinstance(p, ScalarNode):
            n = _container_side(p.value)
            out.append(Port(n, src.span(p), "`expose:`", "listen"))
    test = yn.get(yn.get(svc, "healthcheck"), "test")
    nodes = test.value if isinstance(test, SequenceNode) else [test] if isinstance(test, ScalarNode) else []
    for node in nodes:
        if isinstance(node, ScalarNode):
            m = _HEALTH_URL.search(node.value)
            if m:
                out.append(Port(int(m.group(1)), src.span(node), "the healthcheck", "probe"))
    return tuple(out)


# -- SkyPilot ---------------------------------------------------------------------------


def of_skypilot(src: yn.Src, root: MappingNode) -> Deployment | None:
    """A SkyPilot task's resources: every accelerator it accepts, its nodes, ports."""
    res = yn.get(root, "resources")
    options = _sky_options(src, res)
    nodes_node = yn.get(root, "num_nodes")
    nodes = None
    if isinstance(nodes_node, ScalarNode):
        nodes = Fact(_int(nodes_node.value), src.span(nodes_node), "`num_nodes`")
    ports = []
    pnode = yn.get(res, "ports")
    for p in (pnode.value if isinstance(pnode, SequenceNode) else [pnode] if isinstance(pnode, ScalarNode) else []):
        if isinstance(p, ScalarNode):
            n = _int(p.value)
            ports.append(Port(n, src.span(p), "the task's `resources.ports`", "publish"))
    image = yn.scalar_text(yn.get(res, "image_id")) or ""
    if not options and nodes is None and not ports:
        return None
    return Deployment(runtime="unknown" if image.startswith("docker:") else "host", gpus=tuple(options),
                      nodes=nodes, ports=tuple(ports), span=src.span(res) if res is not None else None,
                      said="the task's resources")


def _sky_options(src: yn.Src, res: Node | None) -> list[GpuRequest]:
    if not isinstance(res, MappingNode):
        return []
    out = _sky_accelerators(src, yn.get(res, "accelerators"))
    for key in ("any_of", "ordered"):
        alts = yn.get(res, key)
        for alt in alts.value if isinstance(alts, SequenceNode) else ():
            got = _sky_options(src, alt)
            if not got:
                return []  # an alternative without GPUs said: any
            out.extend(got)
    return out


def _sky_accelerators(src: yn.Src, node: Node | None) -> list[GpuRequest]:
    """``A100:4``, ``A100`` (one), ``{A100: 4, H100: 4}`` or ``[A100:4, H100:4]`` (any of them)."""
    out = []
    if isinstance(node, ScalarNode) and node.value:
        text = node.value
        name, _, count = text.partition(":")
        n = _int(count) if count else 1
        span = src.span(node)
        out.append(GpuRequest(Fact(n, span, f"`accelerators: {text}`"), Fact(name, span, f"`accelerators: {text}`"),
                              "skypilot", None))
    elif isinstance(node, MappingNode):
        for k, v in yn.items(node):
            name = yn.scalar_text(k)
            n = _int(yn.scalar_text(v)) if isinstance(v, ScalarNode) else None
            said = f"`accelerators: {{{name}: {yn.scalar_text(v)}}}`"
            out.append(GpuRequest(Fact(n, src.span(v), said), Fact(name, src.span(k), said), "skypilot", None))
    elif isinstance(node, SequenceNode):
        for item in node.value:
            out.extend(_sky_accelerators(src, item))
    return out
