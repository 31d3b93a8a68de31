"""The engine: document text → diagnostics, re-checking only what an edit touched.

* ``pipeline``: ``Engine.lint``, parse → release → invocation → rules →
  diagnostics (joined to records, suppressions applied).
* ``reuse``: which launches of the last lint an edit left alone, and their
  diagnostics moved to where the launches are now.
* ``signature``: a rule's declared inputs as a value, to re-run it only
  when they changed.
* ``io``: what the engine reads besides the document (``--config`` files,
  records, model facts) and its caches.
* ``results``: ``LintResult`` and ``LaunchResult``, what a lint returns and
  the next lint reuses.
"""

from __future__ import annotations

from .io import MAX_DOCUMENT_CHARS
from .pipeline import Engine, too_large
from .results import LaunchResult, LintResult

__all__ = ["Engine", "LintResult", "LaunchResult", "MAX_DOCUMENT_CHARS", "too_large"]
