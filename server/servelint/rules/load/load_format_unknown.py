"""SL342: a `--load-format` that the release registers no model loader for."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...derive.load import load_formats
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ..flags._shared import nearest

_CHECK = VllmCheck("load.format_unknown", "Load format `{}` is not supported",
                   "vllm/model_executor/model_loader/__init__.py")


class LoadFormatUnknown(Rule):
    """`--load-format` that names no model loader of the release.

    ## What it does
    Warns about a `--load-format` (compared in lower case, as vLLM does)
    that is not one of the formats the release registers a model loader
    for: `auto`, `safetensors`, `pt`, `npcache`, `dummy`, `tensorizer`,
    `sharded_state`, `runai_streamer`, ... (the release's own list,
    generated; `bitsandbytes` up to 0.27.1, `ipc_cache` from 0.30.0).

    ## Why
    argparse and `LoadConfig` accept any string, so the launch gets all the
    way to loading the weights, on every worker, before vLLM stops with
    "Load format `safetensor` is not supported". A plugin may register a
    loader of its own (`register_model_loader`), which the file does not
    show: hence a warning.

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --load-format safetensor
    ```

    ## Fix
    Use one of the release's formats (`safetensors` here), or leave
    `--load-format` out (`auto`).

    ## Evidence
    The written `--load-format` and the release's registered formats (code
    facts of `_LOAD_FORMAT_TO_MODEL_LOADER`). A value only known at run time
    keeps it silent.

    ## vLLM source
    `get_model_loader`, called when the workers load the model.
    """

    code = "SL342"
    name = "load-format-unknown"
    category = Category.INVALID_VALUE
    severity = Severity.WARNING
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--load-format"
    requires = ("--load-format",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        v = value_of(ctx.invocation, "load_format")
        if v.how != "flag" or not isinstance(v.value, str):
            return
        formats = load_formats(ctx.version)
        name = v.value.lower()
        if formats is None or name in formats:
            return
        close = nearest(name, list(formats), n=1)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        shown = (f"Load format `{name}` is not supported by vLLM {ctx.version} (formats: {', '.join(formats)}): "
                 f"vLLM fails when it loads the weights, unless a plugin registers this format.{hint}")
        yield finding(ctx, v.flags[-1], vllm_message(ctx, _CHECK.key, name), _CHECK.key, message=shown)
