"""SL000: servelint itself failed on a file or a launch."""

from __future__ import annotations

from ...diagnostics import Category, Severity
from ..base import ParseProblemRule


class InternalError(ParseProblemRule):
    """servelint itself failed on this file or launch.

    ## What it does
    Reports that a parser or one rule raised an exception. The other rules
    still ran and their findings are shown.

    ## Why
    A bug in one rule must not hide every other finding, nor stop the
    language server.

    ## Example
    A rule that raises on some launch: that launch gets this warning at its
    start, naming the exception, and every other rule's findings.

    ## Fix
    Please report it with the file that triggers it.

    ## Evidence
    None about vLLM: it reports servelint's own failure. A fix whose result
    makes a rule fail counts as breaking the file and is not offered.
    """

    code = "SL000"
    name = "internal-error"
    category = Category.CONFIG
    severity = Severity.WARNING
