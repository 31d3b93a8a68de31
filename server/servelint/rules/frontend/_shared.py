"""What the frontend rules share: the `--structured-outputs-config` objects
vLLM validates, pydantic's lax booleans, and the order of
`validate_grpc_port_arg`'s checks."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, ClassVar, Iterable

from ...derive.flags import json_keys_known, json_of, switch, value_of, written
from ...derive.base import is_int
from ...derive.serve import rust_frontend_on
from ...knowledge.validators import VllmCheck
from ...diagnostics import Category, Severity
from ...model import Entry
from ..base import Rule

if TYPE_CHECKING:  # pragma: no cover
    from ...argv import Flag
    from ..base import Context, Finding

# StructuredOutputsBackend (config/structured_outputs.py, the same five in
# 0.25.0-0.33.0).
BACKENDS = ("auto", "xgrammar", "guidance", "outlines", "lm-format-enforcer")
_TRUE = ("true", "1", "yes", "on", "t", "y")
_FALSE = ("false", "0", "no", "off", "f", "n")


def truthy(value: Any) -> bool | None:
    """pydantic's lax bool: None when pydantic would reject the value."""
    if isinstance(value, bool):
        return value
    if value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        low = value.strip().lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
    return None


def structured_outputs_objects(ctx: "Context") -> "list[tuple[Flag, dict]]":
    """Each `StructuredOutputsConfig` object argparse builds while parsing,
    with the flag it comes from: every whole-JSON value (argparse converts
    each occurrence), then the object the dotted keys build.  Empty when a
    value is only known at run time; objects with a key the config class
    does not have are left out (pydantic refuses them first)."""
    inv = ctx.invocation
    flags = written(inv, "structured_outputs_config")
    if not flags or not all(f.exact and not f.missing_value for f in flags):
        return []
    objects: list[tuple[Flag, dict]] = []
    for f in flags:
        if f.dotted_key is None and f.values:
            try:
                value = json.loads(f.values[0].text)
            except (ValueError, RecursionError):
                continue
            if isinstance(value, dict):
                objects.append((f, value))
    dotted = [f for f in flags if f.dotted_key is not None]
    if dotted:
        merged = json_of(inv, "structured_outputs_config")
        if merged.known:
            objects.append((dotted[-1], merged.value))
    return [(f, obj) for f, obj in objects if json_keys_known(inv, "structured_outputs_config", obj)]


def whitespace_refused(obj: dict) -> bool:
    """Whether `_validate_structured_output_config` refuses ``obj`` for
    `disable_any_whitespace` (its first check)."""
    backend = obj.get("backend", "auto")
    return truthy(obj.get("disable_any_whitespace")) is True and backend in BACKENDS and backend not in ("xgrammar", "guidance")


def serve_entry(ctx: "Context") -> bool:
    """Whether the launch runs `vllm serve` (the image's entrypoint does)."""
    return ctx.invocation.launch.entry in (Entry.SERVE, Entry.IMAGE)


def headless_serve(ctx: "Context") -> bool:
    """Whether the launch is `vllm serve --headless` as the file shows it
    (not `--grpc`, which starts the gRPC server before any headless check)."""
    inv = ctx.invocation
    return serve_entry(ctx) and switch(inv, "headless") is True and switch(inv, "grpc") is False


class GrpcPortProblem:
    """The check of `validate_grpc_port_arg` a launch fails first: its
    key (``grpc.*``), the `--grpc-port` flag and the flags it conflicts with."""

    __slots__ = ("key", "flag", "partners", "note")

    def __init__(self, key: str, flag: "Flag", partners: tuple = (), note: str = "") -> None:
        self.key, self.flag, self.partners, self.note = key, flag, partners, note


def grpc_port_problem(ctx: "Context") -> GrpcPortProblem | None:
    """`validate_grpc_port_arg` (0.32.0-0.33.0), in vLLM's order: None when
    `--grpc-port` is unset, passes, or a value it needs is unknown."""
    inv = ctx.invocation
    if "grpc_port" not in inv.knowledge.by_dest or inv.last("grpc_port") is None:
        return None
    port = value_of(inv, "grpc_port")
    if port.how != "flag" or not is_int(port.value):
        return None  # unknown, or --grpc-port None
    flag = port.flags[-1]
    grpc = switch(inv, "grpc")
    if grpc is None:
        return None
    if grpc:
        return GrpcPortProblem("grpc.exclusive", flag, value_of(inv, "grpc").flags)
    if not serve_entry(ctx):
        return None
    rust = rust_frontend_on(ctx)
    if rust is None:
        return None
    if not rust:
        return GrpcPortProblem("grpc.rust_frontend", flag, note="VLLM_USE_RUST_FRONTEND is not set")
    headless = switch(inv, "headless")
    known, count = _api_server_count(ctx)
    if headless is None or not known:
        return None
    if headless or (count is not None and count <= 0):
        partners = value_of(inv, "headless").flags if headless else value_of(inv, "api_server_count").flags
        return GrpcPortProblem("grpc.frontend", flag, partners)
    multi = switch(inv, "data_parallel_multi_port_external_lb")
    if multi is None:
        return None
    if multi:
        return GrpcPortProblem("grpc.multi_port", flag, value_of(inv, "data_parallel_multi_port_external_lb").flags)
    if not 0 <= port.value <= 65535:
        return GrpcPortProblem("grpc.range", flag)
    http = value_of(inv, "port")
    uds = value_of(inv, "uds")
    if not http.known or (uds.how == "unknown"):
        return None
    if port.value != 0 and port.value == http.value and not uds.value:
        return GrpcPortProblem("grpc.equals_port", flag, http.flags,
                               note="--port defaults to 8000" if http.how == "default" else "")
    return None


def _api_server_count(ctx: "Context") -> tuple[bool, Any]:
    inv = ctx.invocation
    if "api_server_count" not in inv.knowledge.by_dest:
        return True, None
    v = value_of(inv, "api_server_count")
    if v.how == "unknown" or not (v.value is None or is_int(v.value)):
        return False, None
    return True, v.value


class GrpcPortRule(Rule):
    """What the rules of `validate_grpc_port_arg`'s checks share: each
    module names its check (``_CHECK``), code, name and category."""

    severity = Severity.ERROR
    reviewed = ("0.32.0", "0.33.0")
    anchor = "--grpc-port"
    requires = ("--grpc-port",)
    # The related note on the flags the check's conflict comes from.
    partner_note: ClassVar[str] = ""

    def check(self, ctx: "Context") -> "Iterable[Finding]":
        return grpc_findings(ctx, self.vllm_checks[0].key, self.partner_note)


def grpc_findings(ctx: "Context", key: str, partner_note: str = "") -> list:
    """The finding of rule ``key`` (one of `validate_grpc_port_arg`'s
    checks) when it is the one the launch fails first."""
    from ..base import finding, related, vllm_message

    problem = grpc_port_problem(ctx)
    if problem is None or problem.key != key:
        return []
    message = vllm_message(ctx, key)
    if message is None:
        return []
    rel = related(ctx, problem.partners, partner_note) if partner_note else []
    return [finding(ctx, problem.flag, message, key, note=problem.note, related_to=rel)]


# ``get_args(ReasoningEffort)``, the keys `--reasoning-effort-map` accepts
# (0.33.0); a release that changes the literal loses this fact and the
# rules reading it go silent there.
EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh", "max")
REASONING_EFFORTS = VllmCheck(
    "reasoning_effort.literal",
    'ReasoningEffort = Literal["none", "minimal", "low", "medium", "high", "xhigh", "max"]',
    "vllm/renderers/params.py", code=True,
)


def reasoning_effort_problem(ctx: "Context") -> "tuple[str, Flag, tuple, str] | None":
    """What `validate_reasoning_effort_map` refuses in the launch's
    `--reasoning-effort-map`: the check's key ("reasoning_effort_map.type"
    or ".keys"), the flag, the values vLLM formats into its message and a
    note; None when it passes, is JSON `null` (unset), is only known at run
    time, or the release's efforts are not known."""
    from ..base import release_has

    inv = ctx.invocation
    if inv.last("reasoning_effort_map") is None or not release_has(ctx, REASONING_EFFORTS.key):
        return None
    v = value_of(inv, "reasoning_effort_map")
    if v.how != "flag" or v.value is None or any(f.dotted_key is not None for f in written(inv, "reasoning_effort_map")):
        return None
    if grpc_port_problem(ctx) is not None:
        return None  # reported first
    value, flag = v.value, v.flags[-1]
    if not isinstance(value, dict):
        return "reasoning_effort_map.type", flag, (), "not an object"
    if not all(isinstance(x, str) for x in value.values()):
        return "reasoning_effort_map.type", flag, (), "a value is not a string"
    unknown = sorted(set(value) - set(EFFORTS))
    if unknown:
        return "reasoning_effort_map.keys", flag, (repr(unknown), repr(list(EFFORTS))), ""
    return None


class ReasoningEffortMapRule(Rule):
    """What the two rules of `validate_reasoning_effort_map` share."""

    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    reviewed = ("0.33.0", "0.33.0")
    anchor = "--reasoning-effort-map"
    requires = ("--reasoning-effort-map",)

    def check(self, ctx: "Context") -> "Iterable[Finding]":
        from ..base import finding, vllm_message

        problem = reasoning_effort_problem(ctx)
        key = self.vllm_checks[0].key
        if problem is None or problem[0] != key:
            return
        _, flag, values, note = problem
        yield finding(ctx, flag, vllm_message(ctx, key, *values), key, note=note)


def capped_api_server_count(ctx: "Context") -> "tuple[int, list[Flag], list] | None":
    """A written `--api-server-count` above 1 that `ServeSubcommand.cmd`
    lowers to one (with a log line, not an error): the count, its flags and
    a safe fix removing them; None when the count is not above 1 or not
    known, when the launch is not `vllm serve`, and with `--headless`,
    `--grpc` or the multi-port supervisor (which refuse it, or never get
    there)."""
    from ...derive.flags import int_or_none
    from ...diagnostics import Applicability, Fix
    from ..base import removal_fix

    inv = ctx.invocation
    known, count = int_or_none(inv, "api_server_count")
    if not known or count is None or count <= 1 or not serve_entry(ctx):
        return None
    if switch(inv, "headless") is not False or switch(inv, "grpc") is not False:
        return None
    if switch(inv, "data_parallel_multi_port_external_lb") is not False:
        return None  # the supervisor refuses the count first
    flags = inv.flags_for("api_server_count")
    fix = removal_fix(ctx, flags, "Remove --api-server-count")
    fixes = [Fix(fix.title, fix.edits, Applicability.SAFE, preferred=True)] if fix is not None else []
    return count, flags, fixes
