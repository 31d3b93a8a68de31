"""A failing handler is logged and answered neutrally; the session goes on."""

from __future__ import annotations

import asyncio
import functools
import os
from typing import Any, Callable

# Handler names that raise on purpose, so tests can check that a failing
# handler is logged and the session survives.
_INJECTED_FAULTS = frozenset(filter(None, os.environ.get("SERVELINT_LSP_INJECT_FAULT", "").split(",")))


def guard(default: Any = None):
    """Turn a handler's exception into a log message and a neutral answer,
    so one bad request (or a bug) never takes the session down."""

    def wrap(fn: Callable):
        if asyncio.iscoroutinefunction(fn):

            @functools.wraps(fn)
            async def run_async(self, *args, **kwargs):
                try:
                    if fn.__name__ in _INJECTED_FAULTS:
                        raise RuntimeError(f"injected fault in {fn.__name__}")
                    return await fn(self, *args, **kwargs)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    self.log_error(f"{fn.__name__} failed", exc)
                    return default() if callable(default) else default

            return run_async

        @functools.wraps(fn)
        def run(self, *args, **kwargs):
            try:
                if fn.__name__ in _INJECTED_FAULTS:
                    raise RuntimeError(f"injected fault in {fn.__name__}")
                return fn(self, *args, **kwargs)
            except Exception as exc:
                self.log_error(f"{fn.__name__} failed", exc)
                return default() if callable(default) else default

        return run

    return wrap
