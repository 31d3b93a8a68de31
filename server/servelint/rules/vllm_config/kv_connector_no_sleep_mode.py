"""SL612: ``--enable-sleep-mode`` with a KV connector that cannot follow it."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import json_of, written
from ...knowledge import tables
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, finding, related, vllm_message
from ._shared import VllmConfigRule, switched_on

_CHECK = VllmCheck("vllm.kv_connector_sleep_mode", "{} does not support sleep mode.", "vllm/config/vllm.py")
# Platforms where ModelConfig lets sleep mode on (Platform.is_sleep_mode_available).
_SLEEP_PLATFORMS = ("cuda", "rocm", "xpu")
# The variables MooncakeConnector.supports_sleep_mode refuses (0.33.0).
_MOONCAKE_ENV = ("MC_FORCE_MNNVL", "MC_INTRANODE_NVLINK", "MC_USE_TENT", "MC_USE_TEV1")


def _table() -> dict:
    return tables.releases("kv_sleep_mode.json")


def _supports(ctx: Context, cfg: dict, depth: int = 0) -> bool | None:
    """``connector_cls.supports_sleep_mode(cfg)`` for a connector config
    (the written ``--kv-transfer-config`` or a MultiConnector child), from
    the generated table; None when servelint cannot tell."""
    if depth > 3 or cfg.get("kv_connector_module_path") is not None:
        return None
    name = cfg.get("kv_connector")
    entry = _table().get(ctx.version, {}).get(name) if isinstance(name, str) else None
    if entry is None:
        return None
    if entry["sleep"] != "cond":
        return entry["sleep"] == "yes"
    extra = cfg.get("kv_connector_extra_config") or {}
    if not isinstance(extra, dict):
        return None
    cls = entry["class"]
    if cls == "NixlPullConnector":
        return extra.get("backends", ["UCX"]) == ["UCX"]
    if cls == "MooncakeConnector":
        env = ctx.invocation.env
        for var in _MOONCAKE_ENV:
            got = env.get(var)
            if got is not None:
                return False
        return extra.get("mooncake_protocol", "rdma") == "rdma"
    if cls == "MultiConnector":
        children = extra.get("connectors", [])
        if not isinstance(children, list) or not children or not all(isinstance(c, dict) for c in children):
            return None
        for child in children:
            got = _supports(ctx, child, depth + 1)
            if got is None:
                return None
            if not got:
                return False
        return True
    return None


class KvConnectorNoSleepMode(VllmConfigRule):
    """`--enable-sleep-mode` with a KV connector that does not support sleep mode.

    ## What it does
    Reports `--enable-sleep-mode` together with a `--kv-transfer-config`
    whose connector answers that it cannot follow sleep mode: MoRIIO,
    Mooncake Store, NIXL push, NIXL pull (`NixlConnector`) with a backend
    list other than `["UCX"]`, Mooncake over another protocol than `rdma`
    (or with an NVLink/TENT variable of its own set), a MultiConnector with
    such a child.  Which connector answers what is generated from each
    release (`knowledge/data/kv_sleep_mode.json`,
    `tools/knowledge/kv_sleep_mode.py`).

    ## Why
    Sleep mode frees and remaps the KV cache; these connectors keep
    registrations of it that would then point at the wrong memory. vLLM
    stops while building its config: "MoRIIOConnector does not support
    sleep mode."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --enable-sleep-mode \\
        --kv-transfer-config '{"kv_connector": "MoRIIOConnector", "kv_role": "kv_both"}'
    ```

    ## Fix
    Drop `--enable-sleep-mode`, or use a connector that supports it (NIXL
    with the UCX backend, Mooncake over RDMA, the offloading connectors).

    ## Evidence
    The flags as written and the environment the file gives the launch.
    Silent for a connector loaded from `kv_connector_module_path`, one the
    table does not know, with `--kv-offloading-size` (it may replace the
    connector first), and on targets without sleep mode (vLLM refuses
    sleep mode itself there).

    ## vLLM source
    `VllmConfig._verify_kv_transfer_compat` (0.33.0).
    """

    code = "SL612"
    name = "kv-connector-no-sleep-mode"
    vllm_checks = (_CHECK,)
    anchor = "--enable-sleep-mode"
    partners = ("--kv-transfer-config",)
    requires = ("--enable-sleep-mode",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.target not in _SLEEP_PLATFORMS:
            return
        inv = ctx.invocation
        sleep = switched_on(ctx, "enable_sleep_mode")
        if not sleep.value or not sleep.flags or not written(inv, "kv_transfer_config"):
            return
        if "kv_offloading_size" in inv.knowledge.by_dest and written(inv, "kv_offloading_size"):
            return
        cfg = json_of(inv, "kv_transfer_config")
        if not cfg.known or not cfg.flags:
            return
        name = cfg.value.get("kv_connector")
        if not isinstance(name, str) or _supports(ctx, cfg.value) is not False:
            return
        message = vllm_message(ctx, _CHECK.key, name)
        if message is None:
            return
        yield finding(ctx, sleep.flags[-1], message, _CHECK.key,
                      related_to=related(ctx, cfg.flags[-1:], "connector set by {flag}"))
