"""SL012: more launches in one file than servelint checks."""

from __future__ import annotations

from ...diagnostics import Category, Severity
from ..base import ParseProblemRule


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
