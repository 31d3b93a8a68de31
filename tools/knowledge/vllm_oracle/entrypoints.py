"""Build the parsers a vLLM release's own entry points build, and read argv
with them.  Shared by ``dump_release.py`` (the tables) and
``parse_oracle.py`` (the old-release oracle of the conformance suite); run
inside the release's environment.

Each parser is the one the release builds: the ``vllm`` console script of
the wheel's ``entry_points.txt`` (``vllm.scripts:main`` in old releases,
``vllm.entrypoints.cli.main:main`` later), or a module's ``if __name__ ==
"__main__":`` block run in the module's namespace, up to its call of
``parse_args``, which is intercepted so the parser is kept and nothing is
started.  No vLLM code is changed.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import importlib
import importlib.util
import io
import os
import warnings


class _Captured(BaseException):
    def __init__(self, parser):
        super().__init__("parse_args reached")
        self.parser = parser


def _parser_classes() -> list[type]:
    import argparse

    classes = [argparse.ArgumentParser]
    for mod in ("vllm.utils.argparse_utils", "vllm.utils"):
        try:
            cls = getattr(importlib.import_module(mod), "FlexibleArgumentParser")
        except Exception:
            continue
        if cls not in classes:
            classes.append(cls)
    return classes


@contextlib.contextmanager
def _intercept_parse():
    """Make every parser's ``parse_args``/``parse_known_args`` raise
    ``_Captured(parser)`` instead of reading ``sys.argv``."""
    saved = []

    def stop(self, *a, **k):
        raise _Captured(self)

    for cls in _parser_classes():
        for name in ("parse_args", "parse_known_args"):
            if name in vars(cls):
                saved.append((cls, name, vars(cls)[name]))
                setattr(cls, name, stop)
    try:
        yield
    finally:
        for cls, name, fn in saved:
            setattr(cls, name, fn)


def _run_until_parse(fn, argv: list[str] | None = None) -> tuple[object | None, list[str], str | None]:
    """(parser, warnings raised, error) of running ``fn`` up to its parse,
    with ``sys.argv`` set to ``argv`` meanwhile (vLLM reads it while it
    builds its parsers)."""
    import sys

    saved = sys.argv
    if argv is not None:
        sys.argv = list(argv)
    try:
        return _run_until_parse_now(fn)
    finally:
        sys.argv = saved


def _run_until_parse_now(fn):
    with warnings.catch_warnings(record=True) as caught, _intercept_parse():
        warnings.simplefilter("always")
        try:
            fn()
        except _Captured as c:
            return c.parser, _warning_texts(caught), None
        except BaseException as e:  # an entry point that fails before parsing
            return None, _warning_texts(caught), f"{type(e).__name__}: {e}"[:500]
    return None, _warning_texts(caught), "the entry point returned without parsing its arguments"


def _warning_texts(caught) -> list[str]:
    out = []
    for w in caught:
        if issubclass(w.category, (DeprecationWarning, FutureWarning, UserWarning)):
            text = f"{w.category.__name__}: {w.message}"
            if "vllm" in (w.filename or "") and text not in out:
                out.append(text)
    return out


def _console_script() -> str | None:
    """``module:function`` of the ``vllm`` console script in the wheel."""
    import vllm

    site = os.path.dirname(os.path.dirname(os.path.abspath(vllm.__file__)))
    for name in sorted(os.listdir(site)):
        if name.startswith("vllm-") and name.endswith(".dist-info"):
            path = os.path.join(site, name, "entry_points.txt")
            if not os.path.exists(path):
                return None
            section = None
            for line in open(path, encoding="utf-8"):
                line = line.strip()
                if line.startswith("["):
                    section = line
                elif section == "[console_scripts]" and line.replace(" ", "").startswith("vllm="):
                    return line.split("=", 1)[1].strip()
    return None


def _main_block(module_name: str):
    """A callable running ``module_name``'s ``if __name__ == "__main__":``
    block in the (imported) module's namespace, or None."""
    try:
        mod = importlib.import_module(module_name)
    except Exception as e:
        return None, f"{type(e).__name__}: {e}"[:500]
    with open(mod.__file__, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)
                and isinstance(node.test.left, ast.Name) and node.test.left.id == "__name__"):
            block = ast.Module(body=node.body, type_ignores=[])
            code = compile(block, mod.__file__, "exec")

            def run(code=code, mod=mod):
                exec(code, dict(vars(mod)))

            return run, None
    return None, f"{module_name} has no __main__ block"


def _subparser(parser, name: str):
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices.get(name)
    return None


def capture_entry_points(help_word: str = "--help-schema-dump") -> dict:
    """{entry name: {"parser", "top", "built_by", "warnings", "error"}},
    each parser built with the argv its entry point gets (``vllm serve
    ...``, ``api_server.py ...``) plus ``help_word`` (see dump_release.py)."""
    found: dict[str, dict] = {}
    script = _console_script()
    if script:
        module, _, func = script.partition(":")
        try:
            fn = getattr(importlib.import_module(module), func)
            top, warned, error = _run_until_parse(fn, ["vllm", "serve", help_word])
        except Exception as e:
            top, warned, error = None, [], f"{type(e).__name__}: {e}"[:500]
        serve = _subparser(top, "serve") if top is not None else None
        if serve is None and error is None:
            error = "the vllm console script has no serve sub-command"
        found["serve"] = {"parser": serve, "top": top, "built_by": script, "warnings": warned, "error": error}
    for entry, module in (("api_server", "vllm.entrypoints.openai.api_server"),
                          ("demo_api_server", "vllm.entrypoints.api_server")):
        if importlib.util.find_spec(module) is None:
            continue
        run, error = _main_block(module)
        parser, warned = None, []
        if run is not None:
            parser, warned, error = _run_until_parse(run, [module.rsplit(".", 1)[-1] + ".py", help_word])
        found[entry] = {"parser": parser, "top": parser, "built_by": f"python -m {module}",
                        "warnings": warned, "error": error}
    return found


# --- what parsing does ----------------------------------------------------------
def jsonable(v):
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (list, tuple, set, frozenset)):
        return [jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): jsonable(x) for k, x in v.items()}
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return {f.name: jsonable(getattr(v, f.name, None)) for f in dataclasses.fields(v)}
    value = getattr(v, "value", None)  # enums
    if isinstance(value, (str, int)):
        return value
    name = getattr(v, "name", None)
    if isinstance(name, str):
        return name
    return repr(v)


class Reader:
    """Parse argv with one entry point's real parser."""

    def __init__(self, entry: str, info: dict):
        self.entry = entry
        self.top = info["top"]
        self.parser = info["parser"]
        self.prefix = ["serve"] if entry == "serve" else []

    def parse(self, argv: list[str]) -> dict:
        """{"ok": namespace} or {"error": text}; stderr and vLLM's log
        lines are captured as ``said``."""
        err = io.StringIO()
        handler = _LogCapture()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()), handler:
            try:
                ns = self.top.parse_args(self.prefix + list(argv))
                out = {"ok": {k: jsonable(v) for k, v in vars(ns).items() if not callable(v)}}
            except SystemExit as e:
                out = {"error": f"SystemExit({e.code})", "stderr": err.getvalue().strip().splitlines()[-1:]}
            except BaseException as e:
                out = {"error": f"{type(e).__name__}: {e}"[:300]}
        if handler.lines:
            out["said"] = handler.lines[:4]
        return out


class _LogCapture:
    """Collect WARNING+ records of vLLM's loggers while parsing (vLLM's
    loggers do not propagate to the root logger)."""

    def __init__(self):
        import logging

        self.lines: list[str] = []
        outer = self

        class H(logging.Handler):
            def emit(self, record):
                outer.lines.append(f"{record.levelname}: {record.getMessage()}"[:300])

        self.handler = H(level=logging.WARNING)
        self.loggers = []

    def __enter__(self):
        import logging

        names = [n for n in logging.root.manager.loggerDict if n == "vllm" or n.startswith("vllm.")]
        self.loggers = [logging.getLogger(n) for n in ["vllm", *names]]
        # VLLM_LOGGING_LEVEL=ERROR (the oracle's environment) would drop the
        # warnings before any handler sees them.
        self.levels = [lg.level for lg in self.loggers]
        for lg in self.loggers:
            lg.addHandler(self.handler)
            if lg.level > logging.WARNING:
                lg.setLevel(logging.WARNING)
        return self

    def __exit__(self, *exc):
        for lg, level in zip(self.loggers, self.levels):
            lg.removeHandler(self.handler)
            lg.setLevel(level)
        return False


def dispatch_check(reader: Reader, argv: list[str]) -> str:
    """What ``vllm serve``'s own function does with the parsed arguments
    before it starts the server (0.6.x: ``vllm/scripts.py`` ``serve()``
    rejects ``--model``).  Run in a forked child, with the calls that would
    start the server (``asyncio.run``, ``uvloop.run``) replaced by a stop;
    the answer is "starts" or the exception raised first."""
    import asyncio

    ns = reader.top.parse_args(reader.prefix + list(argv))
    fn = getattr(ns, "dispatch_function", None)
    if fn is None:
        return "no dispatch function"
    rd, wr = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(rd)
        answer = "starts"

        class Stop(BaseException):
            pass

        def stop(*a, **k):
            for x in a:
                close = getattr(x, "close", None)  # an un-awaited coroutine
                if close:
                    close()
            raise Stop()

        asyncio.run = stop
        try:
            import uvloop

            uvloop.run = stop
        except ImportError:
            pass
        try:
            with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
                fn(ns)
            answer = "returned"
        except Stop:
            answer = "starts"
        except BaseException as e:
            answer = f"{type(e).__name__}: {e}"[:300]
        os.write(wr, answer.encode())
        os._exit(0)
    os.close(wr)
    chunks = []
    while True:
        chunk = os.read(rd, 4096)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(rd)
    os.waitpid(pid, 0)
    return b"".join(chunks).decode() or "no answer"
