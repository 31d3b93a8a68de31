"""``servelint.releaseFor``: which vLLM release a document's launches run (the status bar's answer)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from ...engine import Engine, LintResult
from ..session import path_of
from .guard import guard

if TYPE_CHECKING:  # pragma: no cover
    from ..server import ServelintServer

RELEASE_COMMAND = "servelint.releaseFor"


# ``ls`` is not annotated: pygls evaluates a command's annotations to
# convert its arguments, and the server class is not importable here.
@guard()
async def release_for(ls, *args: Any):
    session = ls.session
    uri = args[0] if args else None
    if isinstance(uri, dict):
        uri = uri.get("uri")
    if not isinstance(uri, str):
        return None
    st = await session.lint(uri, publish=False) if uri in session.docs else None
    result = st.result if st is not None else None
    if result is None:
        path = path_of(uri)
        text = session.read_file(path)
        if text is None:
            return None
        loop = asyncio.get_running_loop()
        result = await loop.run_in_executor(
            session.executor, lambda: Engine(session.settings_for(path), read_file=session.read_file).lint(path, text)
        )
    return release_of(ls, result)


def release_of(ls: "ServelintServer", result: LintResult) -> dict | None:
    if result.launches:
        choice = result.launches[0].release
    else:
        from ...release import choose

        settings = ls.session.settings_for(result.path)
        choice = choose(result.parsed, None, setting=settings.vllm_version,
                        use_installed=settings.use_installed_vllm, line_of=result.source.line_of)
    out = {"version": choice.version, "reason": choice.reason}
    others = sorted({lr.release.version for lr in result.launches[1:]} - {choice.version})
    if others:
        out["others"] = others
    return out


def register(server: "ServelintServer") -> None:
    server.command(RELEASE_COMMAND)(release_for)
