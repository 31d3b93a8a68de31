"""SL603: routed-experts output with adaptive verification, PP, context parallelism or a P/D connector."""

from __future__ import annotations

from ...derive.flags import json_of, last_flag, written
from ...derive.speculative import speculative_args
from ..base import Context
from ._shared import RoutedExpertsRule, checks, has, int_above, report

# The P/D connectors ``_verify_aux_output_compatibility`` refuses (0.31.0+),
# in its order, directly or as a MultiConnector child (``KVTransferConfig.has_connector``).
PD_CONNECTORS = ("NixlConnector", "NixlPullConnector", "NixlPushConnector", "MoRIIOConnector", "MooncakeConnector")


def pd_connector(ctx: Context) -> tuple[str, object] | None:
    """The first refused P/D connector of ``--kv-transfer-config`` and its flag, or None."""
    inv = ctx.invocation
    if last_flag(inv, "kv_offloading_size") is not None or not written(inv, "kv_transfer_config"):
        return None  # --kv-offloading-size replaces the connector before the check
    cfg = json_of(inv, "kv_transfer_config")
    if not cfg.known or not cfg.flags:
        return None
    top = cfg.value.get("kv_connector")
    children = []
    if top == "MultiConnector":
        extra = cfg.value.get("kv_connector_extra_config")
        connectors = extra.get("connectors") if isinstance(extra, dict) else None
        if isinstance(connectors, list):
            children = [c.get("kv_connector") for c in connectors if isinstance(c, dict)]
    for name in PD_CONNECTORS:
        if top == name or name in children:
            return name, cfg.flags[-1]
    return None


def _written_connector(ctx: Context):
    """The flag of a ``--kv-transfer-config`` with a connector and a role
    (``is_kv_transfer_instance``), or None.  Up to 0.30.0 the check runs
    before ``--kv-offloading-size`` creates its connector (0.25.0 :906 vs
    :1494, 0.30.0 :1307 vs :1967), so only the written config counts."""
    inv = ctx.invocation
    if not written(inv, "kv_transfer_config"):
        return None
    cfg = json_of(inv, "kv_transfer_config")
    if not cfg.known or not cfg.flags:
        return None
    role = cfg.value.get("kv_role")
    if cfg.value.get("kv_connector") is not None and role in ("kv_producer", "kv_consumer", "kv_both"):
        return cfg.flags[-1]
    return None


class RoutedExpertsIncompatible(RoutedExpertsRule):
    """`--enable-return-routed-experts` with adaptive verification, pipeline or context parallelism, or a P/D KV connector.

    ## What it does
    Reports `--enable-return-routed-experts` (or `--aux-output-config`
    `enable_return_routed_experts`) together with:

    * (0.31.0+) `enable_adaptive_verification: true` in the speculative config;
    * `--pipeline-parallel-size` above 1;
    * `--decode-context-parallel-size` or `--prefill-context-parallel-size` above 1;
    * (0.31.0+) a P/D KV connector (`NixlConnector`, `NixlPullConnector`,
      `NixlPushConnector`, `MoRIIOConnector`, `MooncakeConnector`, also as a
      `MultiConnector` child); before 0.31.0 any connector of
      `--kv-transfer-config` (the check runs before `--kv-offloading-size`
      creates its own).

    ## Why
    The routed experts are captured per token slot on one rank and returned
    with the output; vLLM cannot carry them across pipeline stages, context
    shards, adaptive verification's trimmed batches or a P/D handoff, and
    stops while building its config ("--enable-return-routed-experts is
    incompatible with pipeline parallelism (PP > 1).", ...).

    ## Example
    ```sh
    vllm serve mistralai/Mixtral-8x7B-v0.1 --enable-return-routed-experts -pp 2
    ```

    ## Fix
    Drop `--enable-return-routed-experts`, or the other setting.

    ## Evidence
    The flags as written.

    ## vLLM source
    `VllmConfig._verify_aux_output_compatibility` (0.31.0+); before, the
    same checks in `VllmConfig.__post_init__` (vllm/config/vllm.py).
    """

    code = "SL603"
    name = "routed-experts-incompatible"
    vllm_checks = checks("aux_adaptive", "aux_pp", "aux_cp", "aux_pd", "aux_kv")

    def problems(self, ctx, on):
        here = self.here(ctx, on)
        out = []
        s = speculative_args(ctx)
        if s is not None and s.get("enable_adaptive_verification") is True:
            out.append(report(ctx, s.anchor, "aux_adaptive", related_to=here))
        pp = int_above(ctx, "pipeline_parallel_size", 1)
        if pp is not None:
            out.append(report(ctx, pp.flags[-1], "aux_pp", related_to=here))
        for dest in ("decode_context_parallel_size", "prefill_context_parallel_size"):
            cp = int_above(ctx, dest, 1)
            if cp is not None:
                out.append(report(ctx, cp.flags[-1], "aux_cp", related_to=here))
                break
        if has(ctx, "aux_pd"):
            pd = pd_connector(ctx)
            if pd is not None:
                out.append(report(ctx, pd[1], "aux_pd", pd[0], related_to=here))
        elif has(ctx, "aux_kv"):
            flag = _written_connector(ctx)
            if flag is not None:
                out.append(report(ctx, flag, "aux_kv", related_to=here))
        return out
