"""SL010: a suppression comment that silences nothing."""

from __future__ import annotations

from ...diagnostics import Category, Severity
from ..base import ParseProblemRule


class UnusedSuppression(ParseProblemRule):
    """A `# servelint: ignore[...]` comment that silences nothing.

    ## What it does
    Reports a suppression comment when no diagnostic of the named rules is
    on the line (or launch) it covers.

    ## Why
    Suppressions outlive the problems they hid; a stale one would silently
    hide the next, real problem on that line.

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --max-model-len 8192  # servelint: ignore[unknown-flag]
    ```

    ## Fix
    Remove the comment (or correct the rule name in it).

    ## Evidence
    The comment and the diagnostics servelint itself made for the line or
    launch it covers, in the release the file runs.
    """

    code = "SL010"
    name = "unused-suppression"
    category = Category.CONFIG
    severity = Severity.WARNING
