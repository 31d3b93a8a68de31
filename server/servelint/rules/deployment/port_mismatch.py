"""SL808: `--port` is not where the deployment sends traffic."""

from __future__ import annotations

from typing import Iterable

from ...derive.deployment import deployment
from ...derive.flags import value_of
from ...derive.base import is_int
from ...diagnostics import Applicability, Category, Fix, Related, Severity
from ...edits import set_value
from ..base import Context, Finding, Rule
from ._shared import not_vllm_argv, where

# What each port role means to the launch, for messages.
_ROLE = {"probe": "checks", "service": "sends traffic to", "publish": "maps a host port to",
         "listen": "declares"}


class PortMismatch(Rule):
    """`--port` other than the port the pod, probe, Service or compose mapping uses.

    ## What it does
    Compares the port vLLM listens on (`--port`, 8000 by default) with the
    ports the launch's file points at it: a Kubernetes container's
    `containerPort`s and its liveness, readiness and startup probes, a
    Service in the same file whose selector matches the pod (`targetPort`,
    by number or by the container port's name), a compose service's
    `ports:` and `expose:` and its healthcheck URL, `docker run -p`, a
    SkyPilot task's `resources.ports`.

    ## Why
    vLLM starts, but nothing reaches it: the readiness probe fails and the
    pod never becomes ready (a liveness probe restarts it in a loop), the
    Service or the published port forwards to a port nobody listens on.

    ## Example
    ```yaml
    containers:
      - name: vllm
        image: vllm/vllm-openai:v0.33.0
        args: ["Qwen/Qwen3-8B", "--port", "8080"]
        ports:
          - containerPort: 8000
        readinessProbe:
          httpGet: {path: /health, port: 8000}
    ```

    ## Fix
    Make them agree: set `--port` to the deployment's port (the fix does,
    when every port the file names is the same one), or change the
    deployment's ports.

    ## Fix safety
    Unsafe: other clients of the old port (a sidecar, a benchmark) are not
    in the file.

    ## Evidence
    `--port` as written or its default, and port numbers the file writes
    (a named port is resolved through the container's ports). A kind of
    port that has one entry equal to vLLM's is satisfied (a container may
    also expose a metrics port). Silent when the port is a variable, when
    another container of the pod declares that port (a proxy sidecar), on
    host networking, and when the launch's entry point is not known.
    """

    code = "SL808"
    name = "port-mismatch"
    category = Category.DEPLOYMENT
    severity = Severity.WARNING
    anchor = "--port"
    requires = ("@deployment", "CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES")
    fixes = frozenset({Applicability.UNSAFE})
    reads = frozenset({"port", "deployment"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not_vllm_argv(ctx):
            return
        dep = deployment(ctx)
        if dep is None or not dep.ports:
            return
        port = value_of(ctx.invocation, "port")
        if not port.known or not is_int(port.value):
            return
        listen = port.value
        names = {p.name: p.number for p in dep.ports if p.role == "listen" and p.name and p.number is not None}
        # What another container of the pod listens on is its traffic.
        sidecar = {p.number for p in dep.ports if p.role == "sidecar"} | {
            p.name for p in dep.ports if p.role == "sidecar" and p.name}
        wrong = []
        for role in ("probe", "service", "publish", "listen"):
            numbers = []
            for p in dep.ports:
                if p.role != role or (p.name is not None and p.name in sidecar and p.name not in names):
                    continue
                n = p.number if p.number is not None else names.get(p.name)
                if n is None:
                    numbers = None  # a port servelint cannot resolve: nothing to say for this kind
                    break
                if n in sidecar and n != listen:
                    continue
                numbers.append((n, p))
            if not numbers or any(n == listen for n, _ in numbers):
                continue
            wrong.extend(numbers)
        if not wrong:
            return
        flag = port.flags[-1] if port.how == "flag" and port.flags else None
        span, path, canonical = where(ctx, flag)
        said = f"--port {listen}" if flag is not None else f"--port is not set: vLLM listens on {listen}"
        first = wrong[0]
        parts = [f"{p.said} {_ROLE[p.role]} port {n}" for n, p in wrong[:3]]
        more = f" and {len(wrong) - 3} more" if len(wrong) > 3 else ""
        told = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
        message = f"{said}, but {told}{more}: traffic does not reach vLLM"
        rel = [Related(ctx.path, p.span, f"{p.said}: port {n}") for n, p in wrong]
        fixes = []
        # Only when every port the file names is that one port: moving
        # --port must not break a probe or a Service that agrees now.
        targets = {p.number if p.number is not None else names.get(p.name) for p in dep.ports
                   if p.role != "sidecar"}
        if flag is not None and len(targets) == 1 and None not in targets:
            edits = set_value(ctx.invocation.raw, ctx.text_of, ctx.path, flag, str(targets.pop()))
            if edits:
                fixes.append(Fix(f"Listen on port {first[0]}", edits, Applicability.UNSAFE))
        yield Finding(span, message, flag=canonical, related=rel, fixes=fixes, path=path)
