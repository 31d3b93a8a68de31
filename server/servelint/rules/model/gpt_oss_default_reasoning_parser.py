"""SL624: a reasoning parser turned off for a GPT-OSS model: vLLM sets openai_gptoss."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import json_of, value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ...knowledge.versions import version_key
from ..base import Context, Finding, Rule, finding
from ._hooks import hook_class

# No message: the parser's name is the string vLLM sets.
_CHECK = VllmCheck("model.gpt_oss_default_reasoning_parser", "openai_gptoss",
                   "vllm/model_executor/models/config.py", whole=True)
_HOOK = "GptOssForCausalLMConfig"


def _empty(ctx: Context, value: object) -> bool | None:
    """Whether ``--reasoning-parser VALUE`` leaves the parser unset: "" in
    every release, and from 0.33.0 also "none" in any case
    (``parse_reasoning_parser``, engine/arg_utils.py 0.33.0 :188).  None
    when the value is not a string."""
    if not isinstance(value, str):
        return None
    if value == "":
        return True
    return version_key(ctx.version) >= (0, 33, 0) and value.lower() == "none"


class GptOssDefaultReasoningParser(Rule):
    """`--reasoning-parser ""` (or `none`) for a GPT-OSS model.

    ## What it does
    Warns about a reasoning parser written as unset (`--reasoning-parser ""`;
    from 0.33.0 also `--reasoning-parser none`, in any case; or
    `"reasoning_parser": ""` in `--structured-outputs-config`) for a model
    whose architecture is `GptOssForCausalLM`.

    ## Why
    vLLM's config hook for GPT-OSS replaces an empty reasoning parser with
    `openai_gptoss`, without a message: the parser the file turns off runs
    anyway.

    ## Example
    ```sh
    vllm serve openai/gpt-oss-20b --reasoning-parser none
    ```

    ## Fix
    Drop the flag (the server parses GPT-OSS reasoning with
    `openai_gptoss`), or name the parser you want.

    ## Evidence
    The flags as written and the architecture from the model's config.json
    (the release's `MODELS_CONFIG_MAP` maps it to `GptOssForCausalLMConfig`);
    silent when a value or the architecture is not known, or a non-empty
    parser is written in either place.

    ## vLLM source
    `GptOssForCausalLMConfig.verify_and_update_config` (a silent change).
    """

    code = "SL624"
    name = "gpt-oss-default-reasoning-parser"
    category = Category.CONFIG
    severity = Severity.WARNING
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--reasoning-parser"
    partners = ("--structured-outputs-config",)
    requires = ("--reasoning-parser", "--structured-outputs-config")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        target = None
        what = ""
        rp = value_of(inv, "reasoning_parser")
        if inv.flags_for("reasoning_parser"):
            if rp.how != "flag" or not rp.flags:
                return
            empty = _empty(ctx, rp.value)
            if not empty:
                return  # a parser named (or not known): vLLM uses it
            target = rp.flags[-1]
            raw = (target.values[0].text if target.values else "") or '""'
            what = f"{target.written} {raw}"
        so = json_of(inv, "structured_outputs_config")
        if inv.flags_for("structured_outputs_config"):
            if not so.known or not isinstance(so.value, dict):
                return
            inner = so.value.get("reasoning_parser", "")
            if inner != "":
                return
            if target is None:
                if "reasoning_parser" not in so.value or not so.flags:
                    return
                target = so.flags[-1]
                what = f'"reasoning_parser": "" in {target.written}'
        if target is None:
            return
        if hook_class(ctx) != _HOOK:
            return
        text = (f"vLLM sets the reasoning parser of GPT-OSS models to openai_gptoss when it is empty, so "
                f"{what} does not turn it off")
        yield finding(ctx, target, None, _CHECK.key, message=text)
