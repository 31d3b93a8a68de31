#!/usr/bin/env python
"""vLLM's own verdict on a command line, up to the point where the server
would start, for any release from 0.6.0 on (run inside the release's
environment; ``tests/conformance/run_oracle.py --parse`` runs it).

    python parse_oracle.py CASES.json OUT.json

``CASES.json``: ``{id: {"entry": "serve"|"api_server", "argv": [...]}}``
(``argv`` is what follows ``vllm serve`` or ``python -m
vllm.entrypoints.openai.api_server``).  Each case runs in a forked child of
the process that imported vLLM once: the entry point itself runs (the
``vllm`` console script's function with ``sys.argv = ["vllm", "serve",
...]``, or the api_server module's ``__main__`` block), with the two calls
that start the server, ``asyncio.run`` and ``uvloop.run``, replaced by a
stop.  So the verdict covers the release's parser, its ``--config``
handling, ``validate_parsed_serve_args`` where the release has it, and what
``vllm serve`` checks before it starts (0.6.x rejects ``--model`` there),
but not the engine configuration (``create_engine_config`` runs inside the
server), which the vllm-oracle tool checks for 0.25.0 on.

Origin: written for servelint beside the shared vllm-oracle tool
(``/work/shared/tools/vllm-oracle``), whose ``oracle.sh`` needs 0.25.0 or
later; the result fields follow its JSON (``result``, ``stage``,
``exception_class``, ``error``).
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.dirname(HERE)]

from shims import install_shims  # noqa: E402

_CASES, _OUT = sys.argv[1], sys.argv[2]


class _Stop(BaseException):
    """The entry point reached the call that starts the server."""


def _stop(*args, **kwargs):
    for a in args:
        close = getattr(a, "close", None)  # the un-awaited coroutine
        if close:
            close()
    raise _Stop()


def _runner(entry: str):
    """A function that runs ``entry`` with ``sys.argv`` as set by the caller."""
    from entrypoints import _console_script, _main_block

    if entry == "serve":
        script = _console_script()
        module, _, func = script.partition(":")
        fn = getattr(importlib.import_module(module), func)
        return fn, "vllm"
    module = {"api_server": "vllm.entrypoints.openai.api_server",
              "demo_api_server": "vllm.entrypoints.api_server"}[entry]
    run, error = _main_block(module)
    if run is None:
        raise SystemExit(f"{entry}: {error}")
    return run, module.rsplit(".", 1)[-1] + ".py"


def _one(run, prog: str, entry: str, argv: list[str]) -> dict:
    import asyncio

    asyncio.run = _stop
    try:
        import uvloop

        uvloop.run = _stop
    except ImportError:
        pass
    sys.argv = [prog, *(["serve"] if entry == "serve" else []), *argv]
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            run()
        return {"result": "OK", "stage": "returned"}
    except _Stop:
        return {"result": "OK", "stage": "server start"}
    except SystemExit as e:
        if e.code in (0, None):
            return {"result": "OK", "stage": "exit 0"}
        lines = [line for line in err.getvalue().strip().splitlines() if line.strip()]
        message = lines[-1].split(": error: ", 1)[-1] if lines else str(e.code)
        return {"result": "ERROR", "stage": "parse", "exception_class": "SystemExit",
                "error": f"SystemExit({e.code}): {message}"}
    except BaseException as e:  # what the release raised
        return {"result": "ERROR", "stage": "entry point", "exception_class": type(e).__name__,
                "error": f"{type(e).__name__}: {e}", "message": str(e)}


def _warm_up(run, prog: str) -> None:
    """Run the entry point once up to its parse_args in this process, so
    the modules it imports on the way (0.8+ imports every CLI sub-command
    in ``main()``) are imported once, not once per forked case."""
    from entrypoints import _run_until_parse

    saved = sys.argv
    sys.argv = [prog]
    try:
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            _run_until_parse(run)
    finally:
        sys.argv = saved


def main() -> None:
    install_shims()
    import vllm

    cases = json.load(open(_CASES))
    runners = {}
    out = {}
    for cid, case in cases.items():
        entry = case.get("entry", "serve")
        if entry not in runners:
            runners[entry] = _runner(entry)
            _warm_up(*runners[entry])
        run, prog = runners[entry]
        rd, wr = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(rd)
            try:
                got = _one(run, prog, entry, case["argv"])
            except BaseException as e:
                got = {"result": "ERROR", "stage": "oracle", "error": repr(e)}
            os.write(wr, json.dumps(got).encode())
            os._exit(0)
        os.close(wr)
        chunks = []
        while True:
            chunk = os.read(rd, 65536)
            if not chunk:
                break
            chunks.append(chunk)
        os.close(rd)
        os.waitpid(pid, 0)
        got = json.loads(b"".join(chunks) or b'{"result": "ERROR", "stage": "oracle", "error": "no answer"}')
        got["vllm_version"] = getattr(vllm, "__version__", None)
        out[cid] = got
    with open(_OUT, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    print(f"{len(out)} cases, {sum(r['result'] == 'ERROR' for r in out.values())} rejected", file=sys.stderr)


if __name__ == "__main__":
    main()
