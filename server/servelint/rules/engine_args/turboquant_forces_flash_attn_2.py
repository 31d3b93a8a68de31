"""SL622: a TurboQuant or UltraQuant KV cache overrides the FlashAttention version to 2."""

from __future__ import annotations

import json
from typing import Iterable

from ...derive.flags import json_of, value_of
from ...diagnostics import Category, Severity
from ...knowledge import validators
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related
from ._shared import json_key

_CHECK = VllmCheck("engine_args.turboquant_forces_flash_attn_2", "is not yet compatible with FlashAttention >= 3. ",
                   "vllm/engine/arg_utils.py")


def _family(ctx: Context, dtype: object) -> str | None:
    """"TurboQuant" or "UltraQuant" when the release's check covers ``dtype``."""
    if not isinstance(dtype, str):
        return None
    if dtype.startswith("turboquant_"):
        return "TurboQuant"
    # UltraQuant joined the check with the "%s" wording (0.32.0); before,
    # only turboquant_* dtypes were tested (and ultraquant_4bit did not exist).
    if dtype == "ultraquant_4bit" and _formats_family(ctx):
        return "UltraQuant"
    return None


def _formats_family(ctx: Context) -> bool:
    """Whether the release's message names the cache family (``%s``, 0.32.0+)."""
    found = validators.site(_CHECK.key, ctx.version)
    return found is not None and "%s" in found.template


def _message(ctx: Context, family: str) -> str | None:
    """vLLM's logged text: the logger formats its ``%s`` with the family."""
    found = validators.site(_CHECK.key, ctx.version)
    if found is None:
        return None
    return found.template.replace("%s", family, 1)


def _parses(flags) -> bool:
    """Whether every whole ``--attention-config`` value is JSON (or
    None/null): ``json_of`` reads one that is not as unset, while vLLM stops
    on it."""
    for f in flags:
        if f.dotted_key is not None:
            continue
        if not f.values:
            return False
        raw = f.values[0].text
        if raw.strip() in ("None", "null"):
            continue
        try:
            json.loads(raw)
        except (ValueError, RecursionError):
            return False
    return True


class TurboquantForcesFlashAttn2(Rule):
    """`--kv-cache-dtype turboquant_*` (or `ultraquant_4bit`) without FlashAttention 2.

    ## What it does
    Warns about a TurboQuant KV cache (`--kv-cache-dtype turboquant_k8v4`,
    `turboquant_4bit_nc`, `turboquant_k3v4_nc`, `turboquant_3bit_nc`; from
    0.32.0 also `ultraquant_4bit`) when `--attention-config` (`-ac`) does
    not set `flash_attn_version` to 2: it leaves it unset, or sets 3 or 4.

    ## Why
    The boundary layers these caches keep at the native dtype do not work
    with FlashAttention 3 and later, so vLLM replaces the version with 2 and
    logs "TurboQuant is not yet compatible with FlashAttention >= 3.
    Overriding flash_attn_version to 2. To silence this warning, pass
    --attention-config.flash_attn_version=2". A version 3 or 4 written in
    the file is not used.

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --kv-cache-dtype turboquant_4bit_nc -ac.flash_attn_version=3
    ```

    ## Fix
    Pass `--attention-config.flash_attn_version=2`, as the message says.

    ## Evidence
    `--kv-cache-dtype` as written (an `auto` cache dtype that a checkpoint's
    quantization config resolves is not read) and `--attention-config` as
    written; silent when either is only known at run time.

    ## vLLM source
    `EngineArgs.create_engine_config`, after the attention backend is set (a warning).
    """

    code = "SL622"
    name = "turboquant-forces-flash-attn-2"
    category = Category.CONFIG
    severity = Severity.WARNING
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--kv-cache-dtype"
    partners = ("--attention-config",)
    requires = ("--kv-cache-dtype",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        dtype = value_of(inv, "kv_cache_dtype")
        if dtype.how != "flag" or not dtype.flags:
            return
        family = _family(ctx, dtype.value)
        if family is None:
            return
        target = dtype.flags[-1]
        rel: list = []
        if inv.flags_for("attention_config"):
            cfg = json_of(inv, "attention_config")
            if not cfg.known or not isinstance(cfg.value, dict) or not _parses(inv.flags_for("attention_config")):
                return
            if "flash_attn_version" in cfg.value:
                found = json_key(ctx, "attention_config", "flash_attn_version")
                if found is None:
                    return
                flag, version = found
                if version is not None:
                    if isinstance(version, bool) or version not in (3, 4):
                        return
                    target = flag
                    rel = related(ctx, dtype.flags[-1:], "KV cache dtype set by {flag}")
        message = _message(ctx, family)
        if message is None:
            return
        yield finding(ctx, target, message, _CHECK.key, related_to=rel)
