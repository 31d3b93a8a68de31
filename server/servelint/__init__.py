"""servelint: catch broken vLLM launch configurations while they are typed."""

from __future__ import annotations

import sys

__version__ = "0.1.0"


class LazyLogger:
    """``logging.getLogger(name)``, importing ``logging`` only when something
    is logged: the import is ~8 ms of a cold ``servelint check``, which
    logs nothing.  Until ``logging`` is imported nobody can have configured
    it, so ``debug`` and ``info`` (below the default WARNING level) are
    dropped without importing it; anything else goes to the real logger."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def _logger(self):
        import logging

        return logging.getLogger(self.name)

    def debug(self, *args, **kwargs) -> None:
        if "logging" in sys.modules:
            self._logger().debug(*args, **kwargs)

    def info(self, *args, **kwargs) -> None:
        if "logging" in sys.modules:
            self._logger().info(*args, **kwargs)

    def __getattr__(self, attr: str):
        return getattr(self._logger(), attr)
