"""SL009: a file too large to lint."""

from __future__ import annotations

from ...diagnostics import Category, Severity
from ..base import ParseProblemRule


class FileTooLarge(ParseProblemRule):
    """A file too large to lint is skipped.

    ## What it does
    Reports, as information, that a file over the size limit (5,000,000
    characters) was not linted.

    ## Why
    No launch file is that large, and an editor must stay responsive on any
    file it opens.

    ## Example
    A 20 MB log file opened in the editor, or given to `servelint check`.

    ## Fix
    Nothing to fix; split the file if it really holds launches.
    """

    code = "SL009"
    name = "file-too-large"
    category = Category.CONFIG
    severity = Severity.INFORMATION
