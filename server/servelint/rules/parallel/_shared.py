"""What the parallel family's rules share: the NUMA CPU-set syntax, a list
option's items, the arguments of the multi-port supervisor.  Reading
options (``int_of``, ``switch``, ``known_flag``) is ``derive.flags``'s, the
data-parallel launch ``derive.parallel``'s, findings and vLLM's messages
``rules.base``'s."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...derive.base import is_int
from ...derive.flags import file_value, switch
from ..base import Context

if TYPE_CHECKING:  # pragma: no cover
    from ...argv import Flag

# _NUMACTL_CPUSET_PATTERN (vllm/config/parallel.py 0.25.0:33, 0.33.0:34).
CPUSET = re.compile(r"^\d+(?:-\d+)?(?:,\d+(?:-\d+)?)*$")


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
    inv = ctx.invocation
    if switch(inv, "data_parallel_multi_port_external_lb") is not True:
        return None
    out = {}
    for key in needed:
        dest = _MULTI_PORT_DESTS[key]
        if dest not in inv.knowledge.by_dest:
            out[key] = None
            continue
        v = file_value(inv, dest)
        if v.how == "unknown":
            return None
        if key in ("dp", "dpl", "start", "node_rank", "port", "supervisor_port", "api_server_count") and not (
                v.value is None or is_int(v.value)):
            return None
        out[key] = v.value
    return MultiPortArgs(**out)
