"""SL749: an encoder CUDA graph token budget of zero or less."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ..base import Context, Finding, Rule
from ._shared import TOKEN_BUDGETS, report


class EncoderCudagraphTokenBudgetsPositive(Rule):
    """An `encoder_cudagraph_token_budgets` entry of zero or less.

    ## What it does
    Reports `--compilation-config` `encoder_cudagraph_token_budgets` holding a
    budget at most 0.

    ## Why
    Each budget is a token count an encoder CUDA graph is captured for;
    `CompilationConfig` stops: "All encoder_cudagraph_token_budgets must be
    positive, got [0, 1024]".

    ## Example
    ```sh
    vllm serve Qwen/Qwen2.5-VL-7B-Instruct -cc '{"encoder_cudagraph_token_budgets": [0, 1024]}'
    ```

    ## Fix
    Drop the budgets below 1.

    ## Evidence
    The JSON of `--compilation-config` as written (dotted keys merged). Silent
    when a key is not a field of `CompilationConfig` in the release, when a
    value's type is not the field's (pydantic refuses it first), and when an
    earlier check of `CompilationConfig` fails first (the field validators of
    `mode` and `cudagraph_mode`, then `__post_init__` in its order).

    ## vLLM source
    `CompilationConfig.__post_init__`, the last of its checks.
    """

    code = "SL749"
    name = "encoder-cudagraph-token-budgets-positive"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (TOKEN_BUDGETS,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--compilation-config"
    requires = ("--compilation-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        yield from report(ctx, TOKEN_BUDGETS)
