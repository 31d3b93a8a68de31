"""SL405: an MTP draft `model` without `num_speculative_tokens` (vLLM fails with a TypeError)."""

from __future__ import annotations

from typing import Iterable

from ...derive.speculative import proposer
from ...diagnostics import Category, Severity
from ..base import Context, Finding, Rule
from ._shared import draft_loads, key_finding, speculative_written


class MtpDraftWithoutNumTokens(Rule):
    """An MTP draft named in `model` without `num_speculative_tokens`.

    ## What it does
    Reports a speculative config that names a draft `model` which vLLM
    recognises as an MTP checkpoint (its model type is an MTP one after
    vLLM's MTP override, e.g. DeepSeek-V3), with `method` `mtp` or none, but
    no `num_speculative_tokens`.

    ## Why
    Having detected MTP, vLLM compares the token count with 1 before it
    would default it from the draft, and stops with a bare `TypeError`:
    "'>' not supported between instances of 'NoneType' and 'int'", which
    says nothing about the cause. Without `model`, `mtp` uses the served
    model and the missing count is reported as such (SL316).

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --speculative-config '{"method": "mtp", "model": "deepseek-ai/DeepSeek-V3"}'
    ```

    ## Fix
    Add `"num_speculative_tokens": 1` (the checkpoint's MTP layer count is
    usual), or drop `model` to use the served model's MTP layers.

    ## Evidence
    The speculative config as written and the draft's config.json (a local
    directory or the Hugging Face cache).

    ## vLLM source
    `SpeculativeConfig.__post_init__` (vllm/config/speculative.py), the MTP
    detection in the draft-model branch: `self.num_speculative_tokens > 1`
    with the count unset, in every release 0.25.0-0.33.0. The message is
    Python's, not vLLM's, so no check of the generated table names it.
    """

    code = "SL405"
    name = "mtp-draft-without-num-tokens"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    until = "0.33.0"
    anchor = "--speculative-config"
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        p = proposer(ctx)
        if p is None or p.branch != "draft" or p.method != "mtp" or p.target_draft or p.args.tokens is not None:
            return
        if not draft_loads(ctx, p):
            return
        message = "'>' not supported between instances of 'NoneType' and 'int'"
        yield key_finding(ctx, p.args, "model", None, None, message=(
            "num_speculative_tokens is required with an MTP draft model: vLLM fails with a TypeError "
            f"(\"{message}\") before it would take the count from the draft"))
