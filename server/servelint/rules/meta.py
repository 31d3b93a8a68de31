"""Findings about servelint's own operation rather than about vLLM.

Like the parse-level problems, these have no ``check``: the engine and the
suppression pass emit them.  They are rules so that they have a code, a name,
a severity setting and documentation like every other finding.
"""

from __future__ import annotations

from ..diagnostics import Category, Severity
from .parse_level import ParseProblemRule


class UnusedSuppression(ParseProblemRule):
    """A `# servelint: ignore[...]` comment that silences nothing.

    ## What it does
    Reports a suppression comment when no diagnostic of the named rules is
    on the line (or launch) it covers.

    ## Why
    Suppressions outlive the problems they hid; a stale one would silently
    hide the next, real problem on that line.

    ## Fix
    Remove the comment (or correct the rule name in it).
    """

    code = "SL010"
    name = "unused-suppression"
    category = Category.CONFIG
    severity = Severity.WARNING


class FileTooLarge(ParseProblemRule):
    """A file too large to lint is skipped.

    ## What it does
    Reports, as information, that a file over the size limit (5,000,000
    characters) was not linted.

    ## Why
    No launch file is that large, and an editor must stay responsive on any
    file it opens.

    ## Fix
    Nothing to fix; split the file if it really holds launches.
    """

    code = "SL009"
    name = "file-too-large"
    category = Category.CONFIG
    severity = Severity.INFORMATION


class TooManyLaunches(ParseProblemRule):
    """A file with more launches than servelint checks in one file.

    ## What it does
    Reports, as information, where a file goes past the `max-launches`
    setting (1,000 launches by default): launches from that place on are not
    checked, and no other finding is reported for them.

    ## Why
    Checking a launch takes a fraction of a millisecond, but tens of
    thousands of them (a generated matrix, a pasted log) would take seconds
    of the editor's time on every change.  No hand-written file comes near
    the limit.

    ## Example
    A script that starts the same server on 10,000 ports.

    ## Fix
    Split the file, or raise the limit: `max-launches = 20000` in
    `.servelint.toml`, `servelint check --max-launches 0` (no limit), or the
    `servelint.maxLaunches` setting of the editor.
    """

    code = "SL012"
    name = "too-many-launches"
    category = Category.CONFIG
    severity = Severity.INFORMATION


class InternalError(ParseProblemRule):
    """servelint itself failed on this file or launch.

    ## What it does
    Reports that a parser or one rule raised an exception. The other rules
    still ran and their findings are shown.

    ## Why
    A bug in one rule must not hide every other finding, nor stop the
    language server.

    ## Fix
    Please report it with the file that triggers it.
    """

    code = "SL000"
    name = "internal-error"
    category = Category.CONFIG
    severity = Severity.WARNING
