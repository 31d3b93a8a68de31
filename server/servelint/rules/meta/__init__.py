"""Findings about the file itself and about servelint's own operation.

None of these needs a vLLM release: the parsers report the parse-level
problems by name (``servelint.parse.problems``) and the engine and the
suppression pass emit the meta findings.  They are rules so that each has a
code, a name, a severity setting and documentation like every other finding.
The engine looks them up here.
"""

from __future__ import annotations

from ...parse import problems
from .config_equals_ignored import ConfigEqualsIgnored
from .file_too_large import FileTooLarge
from .form_value import FormValue
from .internal_error import InternalError
from .parse_error import ParseError
from .serve_repeated import ServeRepeated
from .too_many_launches import TooManyLaunches
from .unset_variable import UnsetVariable
from .unused_suppression import UnusedSuppression

PARSE_RULES = (ParseError, ConfigEqualsIgnored, UnsetVariable, ServeRepeated, FormValue)
BY_PROBLEM = {cls.problem: cls for cls in PARSE_RULES}

# Parse problems that an invocation rule judges with the release's knowledge
# (SL003 needs the option's default): the engine does not report them itself.
JUDGED_BY_RULES = frozenset({problems.CONFIG_FALSE_DROPPED})

__all__ = [
    "BY_PROBLEM", "JUDGED_BY_RULES", "PARSE_RULES", "ConfigEqualsIgnored", "FileTooLarge", "FormValue",
    "InternalError", "ParseError", "ServeRepeated", "TooManyLaunches", "UnsetVariable", "UnusedSuppression",
]
