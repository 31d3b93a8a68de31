"""Launches whose model is missing or misplaced."""

from __future__ import annotations

import re

from ..argv import DEFAULT_MODEL
from ..diagnostics import Category, Severity
from ..model import Entry
from .base import Context, Finding, Rule


def served_name_first(inv) -> "object | None":
    """The --served-model-name flag when vLLM rejects the launch for lacking a model first."""
    launch = inv.launch
    if launch.entry not in (Entry.SERVE, Entry.IMAGE) or not launch.args or launch.entry_unknown:
        return None
    if not launch.args[0].text.startswith("-"):
        return None
    # vLLM looks at the words as written, before argparse: only the full
    # spellings count (re.match(r"^--served[-_]model[-_]name(=.+|$)"), and
    # r"^--model(=.+|$)" / r"^--config(=.+|$)" for the ways out), so an
    # abbreviated --served is left to argparse.
    if any(re.match(_CONFIG, w.text) for w in launch.args):
        return None
    if any(re.match(_MODEL, w.text) for w in launch.args):
        return None
    served = [f for f in inv.flags if f.source == "cli" and f.word is not None and re.match(_SERVED, f.word.text)]
    return served[0] if served else None


# Compiled by re's cache on first use: only a launch starting with an option
# needs them, and each module-level compile is ~0.3 ms of a cold check.
_SERVED = r"^--served[-_]model[-_]name(=.+|$)"
_MODEL = r"^--model(=.+|$)"
_CONFIG = r"^--config(=.+|$)"


class ServedNameWithoutModel(Rule):
    """`--served-model-name` with no positional model first.

    ## What it does
    Reports a `vllm serve` launch whose first argument is a flag, that uses
    `--served-model-name` and no `--config`.

    ## Why
    vLLM refuses it before parsing: "`model` should be provided as the first
    positional argument when using `vllm serve`"
    (vllm/utils/argparse_utils.py, `parse_args`, 0.33.0). The nargs=`+` of
    `--served-model-name` would otherwise swallow the model.

    ## Fix
    `vllm serve MODEL --served-model-name NAME ...`
    """

    code = "SL011"
    name = "served-name-without-model"
    category = Category.PARSE_ERROR
    severity = Severity.ERROR

    def check(self, ctx: Context):
        flag = served_name_first(ctx.invocation)
        if flag is None:
            return
        yield Finding(
            flag.name_span,
            "`vllm serve` needs the model as its first argument when --served-model-name is used",
            flag="--served-model-name",
            vllm_message="`model` should be provided as the first positional argument when using `vllm serve`. "
            "i.e. `vllm serve <model> --<arg> <value>`.",
        )


class ModelMissing(Rule):
    """A launch that names no model: vLLM serves its default model.

    ## What it does
    Reports a launch with no positional model, no `--model` and no `model:`
    in its `--config` file.

    ## Why
    vLLM does not stop: it silently serves its default model
    (`Qwen/Qwen3-0.6B` in 0.33.0, `ModelConfig.model`), which is rarely what a
    deployment wants.

    ## Fix
    Name the model: `vllm serve ORG/MODEL ...`.
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
