"""What the late ``VllmConfig`` cross-checks share (vllm/config/vllm.py from
the NIXL/DCP check of ``__post_init__`` on): the written value that decides a
check, and the finding on it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from ...derive.base import UNKNOWN, Derived, is_int
from ...derive.flags import json_of, value_of, written
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, release_has, vllm_message

if TYPE_CHECKING:  # pragma: no cover
    from ...argv import Flag


def written_choice(ctx: "Context", dest: str, choice: str) -> "Flag | None":
    """The flag deciding ``dest`` when the launch writes it as ``choice``
    (compared as written, case-sensitively), else None (also when the
    value is only known at run time)."""
    v = value_of(ctx.invocation, dest)
    if v.how != "flag" or v.value != choice or not v.flags:
        return None
    return v.flags[-1]


def moonep(ctx: "Context") -> "Flag | None":
    """The written ``--all2all-backend moonep``, or None.  ``VllmConfig``
    checks the model and the expert settings only for that backend
    (``if self.parallel_config.all2all_backend == "moonep":``, 0.31.0-0.33.0,
    after the model-runner and profiler validators)."""
    return written_choice(ctx, "all2all_backend", "moonep")



def has_connector(ctx: "Context", name: str):
    """``kv_transfer_config.has_connector(name)``: the connector as
    ``kv_connector`` or as a child of MultiConnector
    (``kv_connector_extra_config.connectors``, vllm/config/kv_transfer.py).
    A ``Derived`` (True/False, the ``--kv-transfer-config`` flags) or
    UNKNOWN when the file does not show the config."""
    cfg = json_of(ctx.invocation, "kv_transfer_config")
    if not cfg.known:
        return UNKNOWN
    value = cfg.value
    connector = value.get("kv_connector")
    if connector == name:
        return Derived(True, cfg.how, "", cfg.flags)
    if connector == "MultiConnector":
        extra = value.get("kv_connector_extra_config", {})
        children = extra.get("connectors", []) if isinstance(extra, dict) else None
        if not isinstance(children, list) or not all(isinstance(c, dict) for c in children):
            return UNKNOWN
        return Derived(any(c.get("kv_connector") == name for c in children), cfg.how, "", cfg.flags)
    if connector is not None and not isinstance(connector, str):
        return UNKNOWN
    return Derived(False, cfg.how, "", cfg.flags)


def has_nixl_connector(ctx: "Context"):
    """``kv_transfer_config.has_connector("NixlConnector")`` (``has_connector``)."""
    return has_connector(ctx, "NixlConnector")


def hisparse(ctx: "Context"):
    """Whether ``attention_config.hisparse_config`` is set when ``VllmConfig``
    checks it (0.30.0+): written in ``--attention-config``, or created for a
    HiSparseConnector in ``--kv-transfer-config``.  A ``Derived`` whose flags
    are the ones that turn HiSparse on; UNKNOWN when the file does not show."""
    att = json_of(ctx.invocation, "attention_config")
    if not att.known:
        return UNKNOWN
    if att.value.get("hisparse_config") is not None:
        return Derived(True, "flag", "", att.flags)
    conn = has_connector(ctx, "HiSparseConnector")
    if not conn.known:
        return UNKNOWN
    return conn


class HiSparseCheck(Rule):
    """What the HiSparse rules share: vLLM checks them one after the other
    once HiSparse is on, on CUDA only (``HiSparse currently requires NVIDIA
    CUDA.`` first).  A rule says what blocks HiSparse (``blocker``): the
    flag to report on and a note, or None."""

    def blocker(self, ctx: "Context"):  # pragma: no cover - abstract
        raise NotImplementedError

    def check(self, ctx: "Context") -> Iterable[Finding]:
        if ctx.target != "cuda":
            return
        on = hisparse(ctx)
        if on.value is not True or not on.flags:
            return
        got = self.blocker(ctx)
        if got is None:
            return
        flag, note = got
        key = self.vllm_checks[0].key
        message = vllm_message(ctx, key)
        if message is None:
            return
        if flag is None:
            yield finding(ctx, on.flags[-1], message, key, note=note)
            return
        rel = related(ctx, on.flags[-1:], "HiSparse turned on by {flag}")
        yield finding(ctx, flag, message, key, note=note, related_to=rel)


def full_cudagraph_mode(ctx: "Context") -> "Flag | None":
    """The ``--compilation-config`` flag when it writes ``cudagraph_mode``
    FULL and nothing before the HiSparse check may change it (eager mode,
    speculative decoding's dynamic override); None otherwise."""
    inv = ctx.invocation
    cc = json_of(inv, "compilation_config")
    if cc.how != "flag" or not cc.flags:
        return None
    mode = cc.value.get("cudagraph_mode")
    if not isinstance(mode, str) or mode.upper() != "FULL":
        return None
    eager = value_of(inv, "enforce_eager")
    if not eager.known or eager.value or written(inv, "speculative_config"):
        return None
    return cc.flags[-1]


# The HiSparse block's checks in vLLM's order (vllm/config/vllm.py
# ``__post_init__``): pipeline parallelism, decode context parallelism,
# cudagraph_mode FULL (0.32.0+), --no-scheduler-reserve-full-isl (0.31.0+),
# a model without ``index_topk``.
_HISPARSE_STAGES = ("pp", "dcp", "full", "isl", "dsa")


def hisparse_passes(ctx: "Context", stage: str) -> bool:
    """Whether the HiSparse checks before ``stage`` pass, as the file shows
    the launch (False when one fails or is not known)."""
    from ...derive.base import is_int

    inv = ctx.invocation
    for before in _HISPARSE_STAGES[:_HISPARSE_STAGES.index(stage)]:
        if before in ("pp", "dcp"):
            dest = "pipeline_parallel_size" if before == "pp" else "decode_context_parallel_size"
            v = value_of(inv, dest)
            if not is_int(v.value) or v.value != 1:
                return False
        elif before == "full" and ctx.at_least("0.32.0"):
            # FULL as written, even where eager mode may turn it off: unsure.
            cc = json_of(inv, "compilation_config")
            if not cc.known:
                return False
            mode = cc.value.get("cudagraph_mode")
            if mode is not None and (not isinstance(mode, str) or mode.upper() == "FULL"):
                return False
        elif before == "isl" and ctx.at_least("0.31.0"):
            isl = value_of(inv, "scheduler_reserve_full_isl")
            if not isl.known or isl.value is False:
                return False
    return True


def proton_config(ctx: "Context") -> "tuple[dict, Flag] | None":
    """The ``--profiler-config`` object and flag when it selects the Proton
    profiler in a form ``ProfilerConfig`` accepts (a local
    ``proton_profiler_dir``; ``proton_data`` tree for graph attribution),
    else None."""
    cfg = json_of(ctx.invocation, "profiler_config")
    if cfg.how != "flag" or not cfg.flags or cfg.value.get("profiler") != "proton":
        return None
    value = cfg.value
    where = value.get("proton_profiler_dir")
    if not isinstance(where, str) or not where or "://" in where:
        return None
    attribution = value.get("proton_graph_attribution", False)
    mode = value.get("proton_mode")
    if not isinstance(attribution, bool) or not (mode is None or isinstance(mode, str)):
        return None
    if attribution and value.get("proton_data", "tree") != "tree":
        return None
    return value, cfg.flags[-1]


def proton_pcsampling(value: dict) -> bool:
    """``proton_mode`` names PC sampling (``pcsampling`` or ``pcsampling:...``)."""
    mode = value.get("proton_mode")
    return bool(mode) and mode.split(":", 1)[0].lower() == "pcsampling"


def cuda_graphs_on(ctx: "Context") -> bool | None:
    """Whether ``VllmConfig._validate_profiler_config`` sees CUDA graphs
    (0.30.0+): ``cudagraph_mode`` other than NONE, or ``cudagraph_mm_encoder``
    without eager mode.  True only on target ``cuda`` for a plain generative
    model with nothing written that may turn graphs off (``-O``, a
    compilation ``mode``, an all2all backend such as MoonEP); None when
    servelint cannot tell."""
    inv = ctx.invocation
    eager = value_of(inv, "enforce_eager")
    if not eager.known:
        return None
    if eager.value:
        return False
    cc = json_of(inv, "compilation_config")
    if not cc.known:
        return None
    mode = cc.value.get("cudagraph_mode")
    if isinstance(mode, str) and mode.strip().upper() == "NONE":
        encoder = cc.value.get("cudagraph_mm_encoder", False)
        return False if encoder is False else None
    if ctx.target != "cuda" or mode is not None and not isinstance(mode, str):
        return None
    if "mode" in cc.value or written(inv, "optimization_level") or written(inv, "all2all_backend"):
        return None
    from ...derive.model import arch_facts

    arch = arch_facts(ctx)
    if arch is None or not arch.is_text_generation_model or arch.is_attention_free:
        return None
    if getattr(arch, "attn_type", None) == "encoder_decoder":
        return None
    return True


class NixlDcp:
    """A NixlConnector launch with ``-dcp`` above 1, as the NIXL block of
    ``VllmConfig.__post_init__`` reads it: the flags, and the transfer size
    the decode context parallel size must equal (the tensor-parallel size
    where the release refuses PCP with NIXL, 0.29.0; else the larger of TP
    and PCP)."""

    __slots__ = ("dcp", "tp", "pcp", "nixl", "transfer")

    def __init__(self, dcp, tp, pcp, nixl, transfer: int) -> None:
        self.dcp, self.tp, self.pcp, self.nixl, self.transfer = dcp, tp, pcp, nixl, transfer


# 0.29.0 compares with the tensor-parallel size alone, after refusing PCP.
NIXL_PCP_REFUSED = VllmCheck("vllm.nixl_no_pcp", "NIXL does not support prefill context parallelism.",
                             "vllm/config/vllm.py", code=True)


def nixl_dcp(ctx: "Context") -> NixlDcp | None:
    """The launch's NIXL decode context parallelism (see ``NixlDcp``); None
    when it has none, the file does not show the sizes, or the release
    refuses the launch's PCP before the DCP checks."""
    inv = ctx.invocation
    dcp = value_of(inv, "decode_context_parallel_size")
    if dcp.how != "flag" or not is_int(dcp.value) or dcp.value <= 1 or not dcp.flags:
        return None
    nixl = has_nixl_connector(ctx)
    if nixl.value is not True:
        return None
    tp = value_of(inv, "tensor_parallel_size")
    pcp = value_of(inv, "prefill_context_parallel_size")
    if not is_int(tp.value) or not is_int(pcp.value):
        return None
    if release_has(ctx, NIXL_PCP_REFUSED.key):
        if pcp.value != 1:
            return None
        return NixlDcp(dcp, tp, pcp, nixl, tp.value)
    return NixlDcp(dcp, tp, pcp, nixl, max(tp.value, pcp.value))
