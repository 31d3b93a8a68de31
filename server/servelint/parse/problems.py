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
