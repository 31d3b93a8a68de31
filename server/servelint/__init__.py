"""servelint: catch broken vLLM launch configurations while they are typed."""

__version__ = "0.1.0"
