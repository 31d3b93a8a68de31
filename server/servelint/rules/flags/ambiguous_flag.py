"""SL102: an abbreviated flag that matches several options."""

from __future__ import annotations

from ...diagnostics import Applicability, Category, Fix, Severity
from ...edits import rename_flag
from ..base import Context, Finding, Rule


class AmbiguousFlag(Rule):
    """An abbreviated flag that matches several options.

    ## What it does
    Reports a prefix such as `--max` that argparse cannot expand because it
    starts several option strings, and lists them.

    ## Why
    vLLM's parser accepts unique prefixes of long options (argparse
    `allow_abbrev`), but an ambiguous one stops vLLM with
    `ambiguous option: --max could match --max-log-len, --max-model-len, ...`.

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --max 8192
    ```

    ## Fix
    Write the whole flag name.

    ## Fix safety
    Unsafe: each candidate is a different option; you choose which one was
    meant.

    ## Evidence
    The flag's name as written and the option strings of the release the
    file runs (generated from its parser): the prefix starts more than one
    of them.
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
