"""Abbreviated flags: ambiguous ones fail, unique ones are fragile."""

from __future__ import annotations

from ..diagnostics import Applicability, Category, Fix, Severity
from ..edits import rename_flag
from .base import Context, Finding, Rule


class AmbiguousFlag(Rule):
    """An abbreviated flag that matches several options.

    ## What it does
    Reports a prefix such as `--max` that argparse cannot expand because it
    starts several option strings, and lists them.

    ## Why
    vLLM's parser accepts unique prefixes of long options (argparse
    `allow_abbrev`), but an ambiguous one stops vLLM with
    `ambiguous option: --max could match --max-log-len, --max-model-len, ...`.

    ## Fix
    Write the whole flag name.

    ## Fix safety
    Unsafe: each candidate is a different option; you choose which one was
    meant.
    """

    code = "SL102"
    fixes = frozenset({Applicability.UNSAFE})
    name = "ambiguous-flag"
    category = Category.UNKNOWN_FLAG
    severity = Severity.ERROR

    def check(self, ctx: Context):
        for flag in ctx.invocation.flags:
            if not flag.candidates:
                continue
            name = flag.written.split("=", 1)[0]
            shown = ", ".join(flag.candidates[:8]) + (", ..." if len(flag.candidates) > 8 else "")
            yield Finding(
                flag.name_span,
                f"ambiguous flag {name}: it could be {shown}",
                flag=name,
                path=flag.path,
                # A short list is a real choice; a long one is no suggestion.
                fixes=[Fix(f"Replace with {c}", rename_flag(flag, c, ctx.path), applicability=Applicability.UNSAFE) for c in flag.candidates]
                if len(flag.candidates) <= 3 else [],
                vllm_message=f"ambiguous option: {name} could match {', '.join(flag.candidates)}",
            )


class AbbreviatedFlag(Rule):
    """A flag written as an abbreviation of a longer one.

    ## What it does
    Points out flags that vLLM accepts only because they are a unique prefix
    of a real flag, such as `--max-num-batched-token` for
    `--max-num-batched-tokens`.

    ## Why
    It works today, but a new flag in a later release can make the prefix
    ambiguous and the launch fails after an upgrade.

    ## Fix
    Write the whole flag name (a safe fix).

    ## Fix safety
    Safe: the full spelling names the option argparse already picks for the
    abbreviation.
    """

    code = "SL108"
    fixes = frozenset({Applicability.SAFE})
    name = "abbreviated-flag"
    category = Category.UNKNOWN_FLAG
    severity = Severity.INFORMATION

    def check(self, ctx: Context):
        for flag in ctx.invocation.flags:
            if flag.spelling != "abbrev" or flag.string is None:
                continue
            yield Finding(
                flag.name_span,
                f"{flag.written} is an abbreviation of {flag.string}: vLLM accepts it, but a later release can make it ambiguous",
                flag=flag.string,
                path=flag.path,
                fixes=[Fix(f"Write {flag.string} in full", rename_flag(flag, flag.string, ctx.path), applicability=Applicability.SAFE, preferred=True)],
            )
