"""SL108: a flag written as a unique abbreviation, which a later release can make ambiguous."""

from __future__ import annotations

from ...diagnostics import Applicability, Category, Fix, Severity
from ...edits import rename_flag
from ..base import Context, Finding, Rule


class AbbreviatedFlag(Rule):
    """A flag written as an abbreviation of a longer one.

    ## What it does
    Points out flags that vLLM accepts only because they are a unique prefix
    of a real flag, such as `--max-num-batched-token` for
    `--max-num-batched-tokens`.

    ## Why
    It works today, but a new flag in a later release can make the prefix
    ambiguous and the launch fails after an upgrade.

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --max-num-batched-token 8192
    ```

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
