"""Names of the problems parsers report (``ParseProblem.code``).

Parsers name what they see; the rules layer (``servelint.rules.parse_level``)
gives each name its stable code, severity and documentation.
"""

# The file (or the part of it holding a launch) does not parse: a YAML syntax
# error, an unterminated quote or heredoc around a launch.
PARSE_ERROR = "parse-error"
# ``--config=file.yaml``: vLLM only expands ``--config`` given as its own
# token, so this form is silently ignored.
CONFIG_EQUALS_IGNORED = "config-equals-ignored"
# ``key: false`` in a --config YAML: under ``vllm serve`` vLLM drops it.
CONFIG_FALSE_DROPPED = "config-false-dropped"
# A flag value (or the model) is built from a variable that is never set and
# has no default, so vLLM would receive an empty or literal value.
UNSET_VARIABLE = "unset-variable"
# The image's entrypoint already runs ``vllm serve`` and the args repeat
# ``serve`` (or ``vllm serve``): vLLM sees ``vllm serve serve ...``.
SERVE_REPEATED = "serve-repeated"
# A value written in a form that vLLM will not receive as the user meant,
# e.g. a Kubernetes args item that is a YAML number instead of a string.
FORM_VALUE = "form-value"
# One argv word holding a flag and its value (or several flags) separated by
# whitespace: a Kubernetes/compose list item ``"--quantization bitsandbytes"``,
# a quoted shell word.  The program receives it as one argument; argparse
# takes a word with a space that names no flag as a positional.  ``data``:
# ``kind`` ("flag-and-value" | "several-flags" | "trailing-whitespace"),
# ``parts`` (each ``{"text", "start", "end"}``, offsets relative to the
# problem's span start, covering the part as written), ``split_at`` (where
# the first whitespace starts, relative too), ``in_place`` (whether each
# character is written where the word is, so the item can be split there),
# ``received`` (the word as vLLM sees it after its underscore rewriting).
JOINED_ARGUMENT = "joined-argument"
