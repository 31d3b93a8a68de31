"""SL008: a launch that names no model."""

from __future__ import annotations

from ...argv import DEFAULT_MODEL
from ...diagnostics import Category, Severity
from ...model import Entry
from ..base import Context, Finding, Rule
from ._shared import served_name_first


class ModelMissing(Rule):
    """A launch that names no model: vLLM serves its default model.

    ## What it does
    Reports a launch with no positional model, no `--model` and no `model:`
    in its `--config` file.

    ## Why
    vLLM does not stop: it silently serves its default model
    (`Qwen/Qwen3-0.6B` in 0.33.0, `ModelConfig.model`), which is rarely what a
    deployment wants.

    ## Example
    ```sh
    vllm serve --max-model-len 8192
    ```

    ## Fix
    Name the model: `vllm serve ORG/MODEL ...`.

    ## Evidence
    Every word of the launch and its `--config` file: reported only when the
    file shows them all. Arguments passed on opaquely (`"$@"`), a
    `--config` file servelint cannot read, or a launch that is only a
    config file are not judged.
    """

    code = "SL008"
    name = "model-missing"
    category = Category.CONFIG
    severity = Severity.WARNING
    reads = frozenset({"*", "config"})  # the words as written: see served_name_first

    def check(self, ctx: Context):
        inv = ctx.invocation
        if inv.model is not None or inv.launch.entry is Entry.CONFIG_FILE:
            return
        if inv.launch.opaque or inv.config_path is not None:
            return  # the model may come from "$@" or a config file we could not read
        if inv.launch.entry_unknown:
            return  # what runs the args may give the model (a chart's template, an operator's runtime)
        if served_name_first(inv) is not None:
            return  # served-name-without-model says it better
        yield Finding(inv.launch.entry_span, f"no model given: vLLM will serve its default, {DEFAULT_MODEL}")
