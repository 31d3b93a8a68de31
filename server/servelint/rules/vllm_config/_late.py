"""What the late ``VllmConfig`` cross-checks share (vllm/config/vllm.py from
the NIXL/DCP check of ``__post_init__`` on): the written value that decides a
check, and the finding on it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...derive.flags import value_of

if TYPE_CHECKING:  # pragma: no cover
    from ...argv import Flag
    from ..base import Context


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


def has_nixl_connector(ctx: "Context"):
    """``kv_transfer_config.has_connector("NixlConnector")``: NixlConnector as
    ``kv_connector`` or as a child of MultiConnector
    (``kv_connector_extra_config.connectors``, vllm/config/kv_transfer.py).
    A ``Derived`` (True/False, the ``--kv-transfer-config`` flags) or
    UNKNOWN when the file does not show the config."""
    from ...derive.base import UNKNOWN, Derived
    from ...derive.flags import json_of

    cfg = json_of(ctx.invocation, "kv_transfer_config")
    if not cfg.known:
        return UNKNOWN
    value = cfg.value
    connector = value.get("kv_connector")
    if connector == "NixlConnector":
        return Derived(True, cfg.how, "", cfg.flags)
    if connector == "MultiConnector":
        extra = value.get("kv_connector_extra_config", {})
        children = extra.get("connectors", []) if isinstance(extra, dict) else None
        if not isinstance(children, list) or not all(isinstance(c, dict) for c in children):
            return UNKNOWN
        return Derived(any(c.get("kv_connector") == "NixlConnector" for c in children), cfg.how, "", cfg.flags)
    if connector is not None and not isinstance(connector, str):
        return UNKNOWN
    return Derived(False, cfg.how, "", cfg.flags)
