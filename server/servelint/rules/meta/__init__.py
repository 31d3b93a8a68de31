"""Findings about the file itself and about servelint's own operation.

None of these needs a vLLM release: the parsers report the parse-level
problems by name (``servelint.parse.problems``) and the engine and the
suppression pass emit the meta findings.  They are rules so that each has a
code, a name, a severity setting and documentation like every other finding.
The engine looks a problem's rule up by its ``problem``
(``rules.problem_rules``).
"""

from __future__ import annotations

from .config_equals_ignored import ConfigEqualsIgnored
from .file_too_large import FileTooLarge
from .form_value import FormValue
from .internal_error import InternalError
from .joined_argument import JoinedArgument
from .parse_error import ParseError
from .serve_repeated import ServeRepeated
from .too_many_launches import TooManyLaunches
from .unset_variable import UnsetVariable
from .unused_suppression import UnusedSuppression

__all__ = [
    "ConfigEqualsIgnored", "FileTooLarge", "FormValue",
    "InternalError", "JoinedArgument", "ParseError", "ServeRepeated", "TooManyLaunches", "UnsetVariable", "UnusedSuppression",
]
