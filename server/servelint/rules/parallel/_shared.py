"""What the parallel family's rules share: reading integer and switch
options, vLLM's message for a check in the launch's release, a finding on a
flag."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterable

from ...derive.base import UNKNOWN, Derived, is_int
from ...derive.flags import value_of
from ...diagnostics import Related, Severity
from ...knowledge import validators
from ...knowledge.validators import VllmCheck
from ...model import Entry
from ..base import Context, Finding

if TYPE_CHECKING:  # pragma: no cover
    from ...argv import Flag

# _NUMACTL_CPUSET_PATTERN (vllm/config/parallel.py 0.25.0:33, 0.33.0:34).
CPUSET = re.compile(r"^\d+(?:-\d+)?(?:,\d+(?:-\d+)?)*$")


def defaults_unknown(ctx: Context) -> bool:
    """Whether an option the launch does not write is unknown rather than
    vLLM's default: in a ``--config`` file linted on its own, the command
    line that names it may set any option."""
    return ctx.invocation.launch.entry is Entry.CONFIG_FILE


def _value(ctx: Context, dest: str) -> Derived:
    v = value_of(ctx.invocation, dest)
    if v.how == "default" and defaults_unknown(ctx):
        return UNKNOWN
    return v


def int_of(ctx: Context, dest: str) -> Derived:
    """An integer option's value (written or default); UNKNOWN when the file
    does not show it or the release has no such option."""
    v = _value(ctx, dest)
    return v if is_int(v.value) else UNKNOWN


def switch(ctx: Context, dest: str) -> bool | None:
    """A boolean option as vLLM receives it; False when the release has no
    such option, None when the file does not show it."""
    if dest not in ctx.knowledge.by_dest:
        return False
    v = _value(ctx, dest)
    return bool(v.value) if v.known else None


def written(ctx: Context, dest: str) -> "Flag | None":
    """The deciding flag of ``dest`` when the launch writes it with a known value."""
    if ctx.invocation.last(dest) is None:
        return None  # the common case, and the cheapest test
    v = value_of(ctx.invocation, dest)
    return v.flags[-1] if v.how == "flag" and v.flags else None


def vllm_message(ctx: Context, check: VllmCheck, *values: object) -> str | None:
    """``check``'s message in the launch's release as vLLM's source spells
    it, each ``{}`` filled with the next of ``values``; None when the release
    does not have the check."""
    found = validators.site(check.key, ctx.version)
    if found is None:
        return None
    parts = found.template.split("{}")
    if len(parts) == 1:
        return found.template  # a release whose wording formats no value
    if len(parts) != len(values) + 1:
        return None  # a wording servelint does not fill in
    out = [parts[0]]
    for value, part in zip(values, parts[1:]):
        out.append(value if isinstance(value, str) else str(value))
        out.append(part)
    return "".join(out)


def path_of(ctx: Context, flag: "Flag") -> str:
    return (flag.word.path if flag.word is not None else None) or ctx.path


def related(ctx: Context, flags: Iterable["Flag | None"], text: str) -> list[Related]:
    """A related location on each written flag; ``{flag}`` is the flag as written."""
    return [Related(path_of(ctx, f), f.name_span, text.format(flag=f.written)) for f in flags if f is not None]


def finding(ctx: Context, flag: "Flag", check: VllmCheck, message: str | None, *, shown: str | None = None,
            note: str = "", related_to: list | None = None, severity: Severity | None = None) -> Finding:
    """A finding on ``flag``'s name whose text is vLLM's ``message`` (or
    servelint's ``shown``) and servelint's ``note``, with the place of
    ``check`` in the launch's release."""
    text = shown or message or ""
    if note:
        text = f"{text} ({note})"
    found = validators.site(check.key, ctx.version)
    return Finding(flag.name_span, text, flag=flag.canonical, severity=severity, related=related_to or [],
                   vllm_message=message, path=path_of(ctx, flag),
                   data={"vllm_source": found.where if found is not None else "?"})


def list_of(ctx: Context, dest: str) -> "tuple[Flag, list] | None":
    """A list option's (``nargs="+"``) deciding flag and its converted items,
    when written and every item is known; None otherwise."""
    from ...values import check_value

    flag = ctx.invocation.last(dest)
    if flag is None or not flag.exact or flag.missing_value or not flag.values:
        return None
    if not all(w.exact for w in flag.values):
        return None
    items = []
    for w in flag.values:
        checked = check_value(flag.option, w.text)
        if checked.problem:
            return None  # argparse refuses it first (invalid-value)
        items.append(checked.value)
    return flag, items


class EngineArgsDP:
    """The data-parallel engine arguments as written (or their defaults),
    before ``create_engine_config`` infers anything from them."""

    __slots__ = ("dp", "dpl", "rank", "start", "ext", "hyb", "nnodes", "node_rank", "pp", "tp", "pcp", "backend")

    def __init__(self, **kw) -> None:
        for k, v in kw.items():
            setattr(self, k, v)


def engine_args_dp(ctx: Context) -> EngineArgsDP | None:
    """The data-parallel engine arguments, or None when one is not known
    from the file or the multi-port supervisor rewrites them for its
    children.  ``pcp`` is 1 in a release without the option."""
    inv = ctx.invocation
    if switch(ctx, "data_parallel_multi_port_external_lb") is not False:
        return None
    out = {}
    for key, dest, default in (("dp", "data_parallel_size", 1), ("dpl", "data_parallel_size_local", None),
                               ("rank", "data_parallel_rank", None), ("start", "data_parallel_start_rank", None),
                               ("nnodes", "nnodes", 1), ("node_rank", "node_rank", 0),
                               ("pp", "pipeline_parallel_size", 1), ("tp", "tensor_parallel_size", 1),
                               ("pcp", "prefill_context_parallel_size", 1)):
        if dest not in inv.knowledge.by_dest:
            out[key] = default
            continue
        v = _value(ctx, dest)
        if v.how == "unknown" or not (v.value is None or is_int(v.value)):
            return None
        out[key] = v.value
    for key in ("dp", "nnodes", "node_rank", "pp", "tp", "pcp"):
        if out[key] is None:
            return None
    for key, dest in (("ext", "data_parallel_external_lb"), ("hyb", "data_parallel_hybrid_lb")):
        got = switch(ctx, dest)
        if got is None:
            return None
        out[key] = got
    backend = _value(ctx, "data_parallel_backend")
    if not backend.known:
        return None
    out["backend"] = backend.value
    return EngineArgsDP(**out)


class MultiPortArgs:
    """The arguments `validate_multi_port_external_lb_args` reads
    (vllm/entrypoints/launchers/dp_supervisor.py; vllm/entrypoints/openai/
    dp_supervisor.py before 0.29.0), as written or defaulted."""

    __slots__ = ("grpc", "uds", "ssl_keyfile", "ssl_certfile", "api_server_count", "rank", "ext", "hyb", "dp", "dpl",
                 "start", "node_rank", "port", "supervisor_port")

    def __init__(self, **kw) -> None:
        for k, v in kw.items():
            setattr(self, k, v)

    def sizes_divide(self) -> bool:
        """Whether the size checks before the start-rank check pass: 2 or
        more local ranks, at most the data-parallel size, dividing it."""
        dp, dpl = self.dp, self.dpl
        return dp is not None and dpl is not None and 2 <= dpl <= dp and dp % dpl == 0

    @property
    def start_rank(self) -> int:
        """``infer_multi_port_external_lb_start_rank``."""
        if self.start is not None:
            return self.start
        return (self.node_rank or 0) * (self.dpl or 0)


_MULTI_PORT_DESTS = {
    "grpc": "grpc", "uds": "uds", "ssl_keyfile": "ssl_keyfile", "ssl_certfile": "ssl_certfile",
    "api_server_count": "api_server_count", "rank": "data_parallel_rank", "ext": "data_parallel_external_lb",
    "hyb": "data_parallel_hybrid_lb", "dp": "data_parallel_size", "dpl": "data_parallel_size_local",
    "start": "data_parallel_start_rank", "node_rank": "node_rank", "port": "port",
    "supervisor_port": "data_parallel_supervisor_port",
}


def multi_port_args(ctx: Context, needed: tuple[str, ...]) -> MultiPortArgs | None:
    """The ``needed`` arguments of a `--data-parallel-multi-port-external-lb`
    launch, or None when the mode is off or one of them is not known."""
    if switch(ctx, "data_parallel_multi_port_external_lb") is not True:
        return None
    out = {}
    for key in needed:
        dest = _MULTI_PORT_DESTS[key]
        if dest not in ctx.knowledge.by_dest:
            out[key] = None
            continue
        v = _value(ctx, dest)
        if v.how == "unknown":
            return None
        if key in ("dp", "dpl", "start", "node_rank", "port", "supervisor_port", "api_server_count") and not (
                v.value is None or is_int(v.value)):
            return None
        out[key] = v.value
    return MultiPortArgs(**out)
