"""Workspace diagnostics for files that are not open.

A client that pulls ``workspace/diagnostic`` (VS Code's Problems panel) asks
again every few seconds, so each file's report is kept with the file's size
and mtime and re-linted only when those change; the first scan, which may
lint many files, reports ``$/progress``.  The files are the ones
``servelint check`` would pick in the workspace folders.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from typing import TYPE_CHECKING

from lsprotocol import types

from ...structs import dataclass
from ...engine import Engine

if TYPE_CHECKING:  # pragma: no cover
    from ..forms import Published
    from ..server import ServelintServer

# A workspace with more candidate files than this is a monorepo or a data
# folder; checking its first files keeps the editor responsive.
MAX_FILES = 2000


@dataclass
class _Report:
    stamp: tuple
    diagnostics: "Published"
    result_id: str
    deps: frozenset[str]  # --config files the lint read


class WorkspaceScan:
    def __init__(self, ls: "ServelintServer") -> None:
        self.ls = ls
        self._reports: dict[str, _Report] = {}
        self._engine: Engine | None = None
        self._lock = asyncio.Lock()

    def forget(self) -> None:
        """Settings changed: every report must be recomputed."""
        self._reports.clear()
        self._engine = None

    def changed(self, paths: list[str]) -> None:
        gone = set(paths)
        for p, report in list(self._reports.items()):
            if p in gone or report.deps & gone:
                del self._reports[p]

    def _roots(self) -> list[str]:
        from pygls import uris

        roots = [uris.to_fs_path(f.uri) for f in self.ls.workspace.folders.values()]
        roots = [r for r in roots if r]
        if not roots and self.ls.session.root:
            roots = [self.ls.session.root]
        return [r for r in roots if os.path.isdir(r)]

    def _files(self) -> list[str]:
        from ...files import walk

        out = []
        for path in walk(self._roots()):
            out.append(os.path.abspath(path))
            if len(out) >= MAX_FILES:
                break
        return out

    def _lint(self, path: str, stamp: tuple) -> _Report | None:
        """Runs in the worker."""
        ls = self.ls
        text = ls.session.read_file(path)
        if text is None:
            return None
        if self._engine is None:
            # Its own engine: the incremental state of open documents stays untouched.
            self._engine = Engine(ls.session.base_settings, read_file=ls.session.read_file, records=ls.session.engine.records)
        result = self._engine.lint(path, text, settings=ls.session.settings_for(path))
        self._engine.forget(path)
        published, _ = ls.session.convert(path, result, None, {})
        return _Report(stamp, published, published.result_id, frozenset(p for p in result.sources if p != path))

    async def reports(self, previous: dict[str, str], token) -> list:
        async with self._lock:
            return await self._reports_locked(previous, token)

    async def _reports_locked(self, previous: dict[str, str], token) -> list:
        ls = self.ls
        loop = asyncio.get_running_loop()
        files = await loop.run_in_executor(None, self._files)
        open_paths = {st.path for st in ls.session.docs.values()}
        todo = []
        for path in files:
            if path in open_paths:
                continue
            try:
                st = os.stat(path)
            except OSError:
                continue
            stamp = (st.st_mtime_ns, st.st_size)
            cached = self._reports.get(path)
            if cached is None or cached.stamp != stamp:
                todo.append((path, stamp))
        progress = await self._begin(token, len(todo)) if todo else None
        for i, (path, stamp) in enumerate(todo):
            report = await loop.run_in_executor(ls.session.executor, self._lint, path, stamp)
            if report is None:
                self._reports.pop(path, None)
            else:
                self._reports[path] = report
            if progress is not None and (i + 1) % 20 == 0:
                ls.work_done_progress.report(progress, types.WorkDoneProgressReport(
                    message=f"{i + 1}/{len(todo)} files", percentage=int(100 * (i + 1) / len(todo))))
        if progress is not None:
            ls.work_done_progress.end(progress, types.WorkDoneProgressEnd(message=f"checked {len(todo)} files"))
        from ..convert import uri_of

        items = []
        for path in files:
            report = self._reports.get(path)
            if report is None or path in open_paths:
                continue
            uri = uri_of(path)
            if previous.get(uri) == report.result_id:
                items.append(types.WorkspaceUnchangedDocumentDiagnosticReport(
                    uri=uri, version=None, result_id=report.result_id))
            else:
                items.append(types.WorkspaceFullDocumentDiagnosticReport(
                    uri=uri, version=None, items=report.diagnostics.encoded(), result_id=report.result_id))
        return items

    async def _begin(self, token, count: int):
        """A progress token for this scan: the client's, or one we create."""
        ls = self.ls
        window = ls.client_capabilities.window
        if token is None:
            if not (window and window.work_done_progress):
                return None
            token = f"servelint-scan-{uuid.uuid4()}"
            try:
                await ls.work_done_progress.create_async(token)
            except Exception:  # the client declined
                return None
        ls.work_done_progress.begin(token, types.WorkDoneProgressBegin(
            title="servelint: checking the workspace", message=f"{count} files", percentage=0, cancellable=False))
        return token
