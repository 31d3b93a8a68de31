"""SL444: a token budget (`--max-num-batched-tokens`) that leaves the drafter no room."""

from __future__ import annotations

from typing import Iterable

from ...derive.scheduler import batches
from ...derive.speculative import SCHEDULED_MINUS_SLOTS, draft_slots, proposer
from ...diagnostics import Category, Severity
from ...knowledge import validators
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, related
from ._shared import final_tokens, key_finding, speculative_written

_PATH = "vllm/config/vllm.py"
_NONE_LEFT = VllmCheck("speculative.scheduled_tokens_none", "based on the speculative decoding settings, which does not allow", _PATH)
_NO_SLOTS = VllmCheck("speculative.budget_slots", "does not have enough slots to schedule a token and", _PATH)


def _fill(template: str, *values) -> str:
    parts = template.split("{}")
    out = [parts[0]]
    for value, part in zip(values, parts[1:]):
        out.extend((str(value), part))
    return "".join(out)


class SpecTokenBudget(Rule):
    """A token budget that leaves no room for the drafter's slots.

    ## What it does
    Compares the scheduler's token budget (`--max-num-batched-tokens`, or
    its default for the GPU) with the slots the drafter adds per request:
    for a draft model one (up to 0.27.1 per sequence of `--max-num-seqs`), K
    (`num_speculative_tokens`) with parallel drafting or DFlash, and from
    0.33.0 K for every EAGLE-style drafter and draft model, and reports
    a budget that leaves nothing to schedule.

    ## Why
    vLLM stops with "VllmConfig does not have enough slots to schedule a
    token and support the speculative decoding settings. Got
    max_num_batched_tokens=3 and num_lookahead_tokens=3." (up to 0.27.1:
    "max_num_scheduled_tokens is set to 0 based on the speculative decoding
    settings, which does not allow any tokens to be scheduled. ...").

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --max-num-seqs 1 --max-num-batched-tokens 3 \\
        --speculative-config '{"model": "meta-llama/Llama-3.2-1B-Instruct", "num_speculative_tokens": 3, "parallel_drafting": true}'
    ```

    ## Fix
    Raise `--max-num-batched-tokens` (vLLM recommends 8192 or more), or lower
    `num_speculative_tokens` (or `--max-num-seqs` up to 0.27.1).

    ## Evidence
    The flags as written; an unwritten budget takes its default on every
    GPU class the target may be, and the rule reports only what holds on all
    of them. The method decides the slots: silent when it depends on a draft
    config that is not at hand.

    ## vLLM source
    `VllmConfig._set_max_num_scheduled_tokens`, with
    `SpeculativeConfig.max_num_new_slots_for_drafting` (up to 0.32.0) or
    `VllmConfig.num_lookahead_tokens` (0.33.0).
    """

    code = "SL444"
    name = "spec-token-budget"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_NONE_LEFT, _NO_SLOTS)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--max-num-batched-tokens"
    partners = ("--speculative-config",)
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        p = proposer(ctx)
        k = final_tokens(p)
        if k is None:
            return
        slots = draft_slots(ctx, p, k)
        sizes = batches(ctx)
        if not slots or not sizes:
            return
        version = ctx.version
        plural = "s" if slots != 1 else ""
        if validators.has(SCHEDULED_MINUS_SLOTS.key, version):
            # Up to 0.27.1 every sequence's slots come off the budget.
            left = {b.tokens - slots * b.seqs for b in sizes}
            site = validators.site(_NONE_LEFT.key, version)
            if site is None or not all(x <= 0 for x in left):
                return
            b = sizes[0]
            shown = (f"the drafter's {slots} slot{plural} per sequence fill the token budget "
                     f"({b.tokens} tokens for {b.seqs} sequences{_where(sizes)}): no token is left to schedule")
            message = _fill(site.template, left.pop()) if len(left) == 1 else None
            key = _NONE_LEFT.key
        else:
            site = validators.site(_NO_SLOTS.key, version)
            if site is None or not all(b.tokens <= slots for b in sizes):
                return
            budgets = {b.tokens for b in sizes}
            shown = (f"the token budget ({max(budgets)} tokens{_where(sizes)}) leaves no room for the drafter's "
                     f"{slots} slot{plural} per request")
            message = _fill(site.template, budgets.pop(), slots) if len(budgets) == 1 else None
            key = _NO_SLOTS.key
        flag = ctx.invocation.last("max_num_batched_tokens")
        budget = related(ctx, [flag], "the token budget") if flag is not None else []
        yield key_finding(ctx, p.args, "num_speculative_tokens", message, key, message=shown, related_to=budget)


def _where(sizes) -> str:
    """Where the default decided: nothing when the flags did."""
    if all(b.tokens_written and b.seqs_written for b in sizes):
        return ""
    return " on every GPU class, with vLLM's defaults" if len(sizes) > 1 else f" on {sizes[0].device}"
