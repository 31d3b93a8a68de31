"""SL400: `method: custom_class` without the proposer's import path in `model`."""

from __future__ import annotations

from typing import Iterable

from ...derive.speculative import proposer
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import key_finding, speculative_written

_CHECK = VllmCheck(
    "speculative.custom_class_model",
    "method='custom_class' requires 'model' to contain the custom proposer module path",
    "vllm/config/speculative.py",
)
_MESSAGE = ("method='custom_class' requires 'model' to contain the custom proposer module path "
            "(e.g., 'my_module.MyProposer').")


class CustomClassRequiresModel(Rule):
    """`method: custom_class` with `num_speculative_tokens` but no `model`.

    ## What it does
    Reports a speculative config whose `method` is `custom_class` and that
    sets `num_speculative_tokens` but no `model`.

    ## Why
    A custom proposer is a class vLLM imports at run time; `model` names it
    (`my_package.MyProposer`). Without it vLLM stops while building its
    config: "method='custom_class' requires 'model' to contain the custom
    proposer module path (e.g., 'my_module.MyProposer')."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --speculative-config '{"method": "custom_class", "num_speculative_tokens": 4}'
    ```

    ## Fix
    Add `"model": "my_package.MyProposer"` (a dotted import path, without
    `/`), or pick a built-in method such as `ngram`.

    ## Evidence
    The speculative config as written (`--speculative-config`, its dotted
    keys, `--spec-method`/`--spec-model`/`--spec-tokens`).

    ## vLLM source
    `SpeculativeConfig.__post_init__`, where a method without a model gets
    its default model.
    """

    code = "SL400"
    name = "spec-custom-class-requires-model"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--speculative-config"
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        p = proposer(ctx)
        if p is None or p.fails != "custom_class":
            return
        yield key_finding(ctx, p.args, "method", _MESSAGE, _CHECK.key)
