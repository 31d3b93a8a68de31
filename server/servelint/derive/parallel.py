"""``ParallelConfig``: the parallel sizes and the all-to-all backend."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..knowledge import validators
from ..knowledge.validators import VllmCheck
from .base import UNKNOWN, Derived, FrozenValue, is_int
from .flags import defaults_unknown, file_value, int_or_none, switch, value_of
from .view import memo

if TYPE_CHECKING:  # pragma: no cover
    from ..argv import Invocation
    from .view import View

def pipeline_parallel_size(inv: "Invocation") -> Derived:
    v = value_of(inv, "pipeline_parallel_size")
    if not v.known or not isinstance(v.value, int):
        return UNKNOWN
    return v


def use_batched_dp_moe(inv: "Invocation") -> bool:
    """``ParallelConfig.use_batched_dp_moe`` (config/parallel.py 0.25.0 :659,
    0.33.0 :796): deepep_low_latency or nixl_ep with expert parallelism and
    data parallelism; True also when one of those is not known."""
    backend = value_of(inv, "all2all_backend")
    ep = value_of(inv, "enable_expert_parallel")
    dp = value_of(inv, "data_parallel_size")
    if backend.known and backend.value not in ("deepep_low_latency", "nixl_ep"):
        return False
    if ep.known and not ep.value:
        return False
    if is_int(dp.value) and dp.value <= 1:
        return False
    return True


# -- the data-parallel launch, as ``EngineArgs.create_engine_config`` resolves it --

# Facts of the code that decide the resolution below, per release.
# The world size that ``--nnodes`` divides counts prefill-context parallelism
# from 0.30.0 (vllm/engine/arg_utils.py 0.30.0:2184; before it DP x PP x TP).
DP_WORLD_HAS_PCP = VllmCheck(
    "parallel.dp_world_size_has_pcp", "world_size = self.data_parallel_size * world_size_within_dp",
    "vllm/engine/arg_utils.py", code=True,
)
# From 0.28.0 a start rank of 0 counts as given (``is not None``); before it
# the test was its truth value (0.27.1:2117 ``if self.data_parallel_start_rank and not headless``).
DP_START_RANK_IS_NOT_NONE = VllmCheck(
    "parallel.dp_start_rank_is_not_none", "if self.data_parallel_start_rank is not None and not headless:",
    "vllm/engine/arg_utils.py", code=True,
)
# From 0.31.0 a written --data-parallel-rank is kept under external LB with
# --nnodes (only an absent one is inferred from --node-rank, and refused when
# --nnodes is not a multiple of --data-parallel-size); before it the rank was
# always replaced by the inferred one (0.30.0:2210).
EXT_LB_RANK_AMBIGUOUS = VllmCheck(
    "parallel.ext_lb_rank_ambiguous", "cannot unambiguously identify external data-parallel ranks",
    "vllm/engine/arg_utils.py",
)
# ``ParallelConfig``'s DCP checks: from 0.26.0 DCP must divide TP only
# without prefill-context parallelism, and with it must span one of its axes
# (the check SL511 mirrors); 0.26.0-0.29.0 refuse PCP with data parallelism
# just before (vllm/config/parallel.py 0.29.0:549).
DCP_PCP_TOPOLOGY = VllmCheck("parallel.dcp_pcp_topology", "When PCP is enabled, DCP must be disabled",
                             "vllm/config/parallel.py")
PCP_REFUSES_DP = VllmCheck("parallel.pcp_refuses_dp", "PCP does not support data parallelism yet.",
                           "vllm/config/parallel.py")
VLLM_FACTS = (DP_WORLD_HAS_PCP, DP_START_RANK_IS_NOT_NONE, DCP_PCP_TOPOLOGY, PCP_REFUSES_DP)


class DataParallelArgs(FrozenValue):
    """The data-parallel engine arguments as written (or their defaults),
    before ``create_engine_config`` infers anything from them.

    ``size``, ``size_local``, ``rank``, ``start_rank``: ``--data-parallel-size``,
    ``-size-local``, ``-rank`` and ``-start-rank`` (the last three None when not
    given); ``external_lb`` / ``hybrid_lb``: the two switches as written;
    ``backend``: ``--data-parallel-backend``, None when not known from the
    file; ``pcp``: ``--prefill-context-parallel-size``, 1 in a release
    without it.
    """

    __slots__ = _fields = ("size", "size_local", "rank", "start_rank", "external_lb", "hybrid_lb", "nnodes",
                           "node_rank", "pp", "tp", "pcp", "backend")

    def __init__(self, **kw) -> None:
        for name in self._fields:
            object.__setattr__(self, name, kw[name])


_DP_ARGS = (
    # field, dest, value in a release without the option
    ("size", "data_parallel_size", 1), ("size_local", "data_parallel_size_local", None),
    ("rank", "data_parallel_rank", None), ("start_rank", "data_parallel_start_rank", None),
    ("nnodes", "nnodes", 1), ("node_rank", "node_rank", 0), ("pp", "pipeline_parallel_size", 1),
    ("tp", "tensor_parallel_size", 1), ("pcp", "prefill_context_parallel_size", 1),
)
_DP_ARGS_REQUIRED = ("size", "nnodes", "node_rank", "pp", "tp", "pcp")


def data_parallel_args(ctx: "View") -> DataParallelArgs | None:
    """The data-parallel engine arguments ``create_engine_config`` starts from
    (vllm/engine/arg_utils.py), or None when one of them (other than the
    backend) is not known from the file, or under
    ``--data-parallel-multi-port-external-lb``, whose supervisor rewrites them
    for its children (``_build_vllm_dp_server_args``)."""
    inv = ctx.invocation
    return memo(inv, (data_parallel_args,), lambda: _data_parallel_args(inv))


def _data_parallel_args(inv: "Invocation") -> DataParallelArgs | None:
    if switch(inv, "data_parallel_multi_port_external_lb") is not False:
        return None
    out: dict[str, object] = {}
    for name, dest, absent in _DP_ARGS:
        known, value = int_or_none(inv, dest, absent)
        if not known:
            return None
        out[name] = value
    if any(out[name] is None for name in _DP_ARGS_REQUIRED):
        return None
    for name, dest in (("external_lb", "data_parallel_external_lb"), ("hybrid_lb", "data_parallel_hybrid_lb")):
        got = switch(inv, dest)
        if got is None:
            return None
        out[name] = got
    backend = file_value(inv, "data_parallel_backend")
    out["backend"] = backend.value if backend.known else None
    return DataParallelArgs(**out)


class DataParallelLaunch(FrozenValue):
    """The data-parallel values vLLM hands ``ParallelConfig``.

    ``size``: ``--data-parallel-size``; ``size_local``: the local size passed
    on (1 under external load balancing); ``rank``: ``data_parallel_rank``
    as passed (``or 0``); ``external_lb`` / ``hybrid_lb``: the load-balancing
    mode after vLLM's inference; ``written_rank``: whether a rank was
    written or inferred from ``--nnodes``/``--node-rank``; ``autoswitched``:
    hybrid LB turned into external LB because the local size is 1.
    """

    __slots__ = _fields = ("size", "size_local", "rank", "external_lb", "hybrid_lb", "has_rank", "autoswitched",
                           "nnodes", "node_rank", "world_size_within_dp")

    def __init__(self, **kw) -> None:
        for name in self._fields:
            object.__setattr__(self, name, kw[name])


def data_parallel_launch(ctx: "View") -> DataParallelLaunch | None:
    """The data-parallel launch as ``EngineArgs.create_engine_config`` resolves
    it before building ``ParallelConfig`` (vllm/engine/arg_utils.py 0.25.0
    :1934-2046, 0.33.0 :2381-2537), assuming its own checks there pass (each
    is a rule): the rank inferred from ``--node-rank`` for external LB with
    ``--nnodes``, the local size inferred for internal LB with ``--nnodes``,
    hybrid LB inferred from ``--data-parallel-start-rank`` (not in headless
    mode) and switched to external LB for a local size of 1.

    None when a value it needs is not known from the file, when the launch
    runs headless (``--headless``, ``--api-server-count 0``: no hybrid
    inference there), and under ``--data-parallel-multi-port-external-lb``,
    whose supervisor starts one child per local rank with the data-parallel
    arguments rewritten (``_build_vllm_dp_server_args``).
    """
    inv = ctx.invocation
    return memo(inv, (data_parallel_launch,), lambda: _data_parallel_launch(ctx))


def _data_parallel_launch(ctx: "View") -> DataParallelLaunch | None:
    inv = ctx.invocation
    if defaults_unknown(inv):
        return None  # linted on its own, the command line naming it may set any of these
    args = data_parallel_args(ctx)
    headless = switch(inv, "headless")
    servers = int_or_none(inv, "api_server_count")
    if args is None or headless is None or not servers[0]:
        return None
    if headless or servers[1] == 0:
        return None  # run_headless: create_engine_config(headless=True)
    dp, dpl, rank, start = args.size, args.size_local, args.rank, args.start_rank
    nnodes, node_rank, ext, hyb = args.nnodes, args.node_rank, args.external_lb, args.hybrid_lb
    pcp = args.pcp if validators.has(DP_WORLD_HAS_PCP.key, inv.version) else 1
    within = args.pp * args.tp * pcp
    if within <= 0 or nnodes <= 0:
        return None
    inferred = 0
    if nnodes > 1:
        world = dp * within
        local_world = world // nnodes
        inferred = (node_rank * local_world) // within
        if dp > 1 and ext:
            if rank is None or not validators.has(EXT_LB_RANK_AMBIGUOUS.key, inv.version):
                rank = inferred
        elif dpl is None:
            dpl = max(local_world // within, 1)
    external = ext or rank is not None
    autoswitched = False
    if external:
        size_local, hybrid = 1, False
    elif dpl is not None:
        size_local = dpl
        started = start is not None if validators.has(DP_START_RANK_IS_NOT_NONE.key, inv.version) else bool(start)
        hybrid = hyb or started
        if hybrid and size_local == 1:
            external, hybrid, autoswitched = True, False, True
        if size_local == dp:
            hybrid = False
        if validators.has(DP_START_RANK_IS_NOT_NONE.key, inv.version):
            rank = start if start is not None else inferred
        else:
            rank = start or inferred
    else:
        hybrid = hyb
        if args.backend is None:
            return None
        if args.backend == "ray":
            # envs.VLLM_RAY_DP_PACK_STRATEGY, "strict" when unset (envs.py 0.33.0:186).
            var = inv.env.get("VLLM_RAY_DP_PACK_STRATEGY")
            if var is not None and var.value is None:
                return None
            size_local = 1 if var is not None and var.value == "span" else dp
        else:
            size_local = dp
    return DataParallelLaunch(size=dp, size_local=size_local, rank=rank or 0, external_lb=external, hybrid_lb=hybrid,
                              has_rank=rank is not None, autoswitched=autoswitched, nnodes=nnodes,
                              node_rank=node_rank, world_size_within_dp=within)
