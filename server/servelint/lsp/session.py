"""The open documents and their lint results: what the handlers work on.

Everything that decides *what* is wrong with a launch lives in the engine;
the session only decides *when* to ask it (debounced, off the message loop,
never publishing for a version the editor has moved past) and keeps the
answers, converted for the editor, per document.

Threading: the asyncio loop answers messages; ``Engine`` calls run in one
worker thread, so the engine (which keeps per-document state for incremental
re-checking) is never entered twice at once.  The one exception, a quick
re-lint while the worker is idle, runs on the loop itself, where nothing else
can enter the engine either.  Handlers only read ``LintResult`` objects,
which the engine does not mutate after returning them.
"""

from __future__ import annotations

import asyncio
import gc
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls import uris

from ..structs import dataclass
from ..engine import Engine, LintResult
from ..engine.io import read_text_file
from ..model import Entry
from ..settings import Settings, for_file
from ..text import SourceText
from . import convert, forms

if TYPE_CHECKING:  # pragma: no cover
    from .server import ServelintServer

SECTION = "servelint"

# A keystroke is linted at once when the worker is idle; while it is busy,
# the next lint waits for this pause in typing, so a burst is one lint.
DEBOUNCE_S = 0.03
# Edits closer together than this are one burst (no person types that fast).
BURST_GAP_S = 0.01
# After this long without a lint the heap is collected in full (see _settle_heap).
IDLE_GC_S = 2.0
# How long a document's settings (its project config) are taken as read.
SETTINGS_TTL_S = 1.0
# A document whose last lint took less than this is linted on the event loop
# itself when the worker is idle (see Session.lint).
INLINE_LINT_S = 0.05


@dataclass
class DocState:
    """What the server knows about one open document."""

    uri: str
    path: str
    # Bumped by every event that may change the diagnostics (an edit, a
    # settings change, an edit to a --config file it reads); a lint result
    # is current only if it was computed at the current stamp.
    stamp: int = 0
    result: LintResult | None = None
    result_stamp: int = -1
    result_version: int | None = None
    encoding: str = "utf-16"
    # The LSP form of ``result``'s diagnostics, shown or not yet (with the
    # engine diagnostic each was made from: its fixes are verified when a
    # code action asks for them).
    latest: forms.Published | None = None
    # Diagnostics as the editor sees them (pushed, or returned to a pull).
    shown: forms.Published | None = None
    result_id: str | None = None
    diagnostics_version: int | None = None
    published_id: str | None = None
    deps: frozenset[str] = frozenset()  # other files the last lint read
    has_config_ref: bool = False
    # A launch names a --config file that could not be read: any YAML file
    # appearing (opened, created) may be it.
    waits_for_config: bool = False
    # The release of the file's last readable --config mapping, for
    # completing a key while the YAML is half typed.
    config_release: str | None = None
    pending: asyncio.Task | None = None
    # How long the last lint (and conversion) of this document took.
    lint_s: float | None = None
    # Its conversion to LSP from one lint to the next (used by the engine's thread only).
    conversion: forms.DocumentForms | None = None
    last_scheduled: float = 0.0
    inflight: tuple[int, asyncio.Future] | None = None


class Worker(ThreadPoolExecutor):
    """The one thread the engine runs in, knowing whether it has work."""

    def __init__(self) -> None:
        super().__init__(max_workers=1, thread_name_prefix="servelint-lint")
        self._count_lock = threading.Lock()
        self._unfinished = 0

    def submit(self, fn, /, *args, **kwargs):
        with self._count_lock:
            self._unfinished += 1
        try:
            fut = super().submit(fn, *args, **kwargs)
        except BaseException:
            self._finished(None)
            raise
        fut.add_done_callback(self._finished)
        return fut

    def _finished(self, _fut) -> None:
        with self._count_lock:
            self._unfinished -= 1

    @property
    def idle(self) -> bool:
        return self._unfinished == 0


def path_of(uri: str) -> str:
    return uris.to_fs_path(uri) or uri


class Session:
    """The open documents (``docs``), their lints, and the settings they
    are linted with, for one client (``server``)."""

    def __init__(self, server: "ServelintServer") -> None:
        self.server = server
        self.editor_settings: dict = {}
        self.base_settings = Settings()
        self.root: str | None = None
        self.docs: dict[str, DocState] = {}
        # What the client said it can do (see handlers.lifecycle.initialize).
        self.pull = False
        self.refresh_supported = False
        self.document_changes = False
        self.debounce = DEBOUNCE_S
        self.lints_running = 0
        self._idle_gc: asyncio.TimerHandle | None = None
        self._settings: dict[str, tuple[Settings, float, Settings]] = {}  # see settings_for
        self.executor = Worker()
        # Open documents' texts for the lint running in the worker: a --config
        # file being edited is read from the editor, not from disk.
        self._overlay: dict[str, str] = {}
        self.engine = Engine(read_file=self.read_file)

    # -- files and settings --------------------------------------------------

    def read_file(self, path: str) -> str | None:
        text = self._overlay.get(path)
        if text is not None:
            return text
        return read_text_file(path)

    def settings_for(self, path: str) -> Settings:
        if not os.path.isabs(path):
            return self.base_settings
        # Finding the project config stats two names in every directory up
        # to the root: ~0.3 ms, asked twice a keystroke.  A config file
        # changed on disk is seen at once when the client watches files (see
        # did_change_watched_files), else within SETTINGS_TTL_S.
        now = time.monotonic()
        base = self.base_settings
        known = self._settings.get(path)
        if known is not None and known[0] is base and now - known[1] < SETTINGS_TTL_S:
            return known[2]
        if len(self._settings) > 4096:
            self._settings.clear()
        settings = for_file(path, base)
        if known is not None and settings == known[2]:
            # The same settings read again: the same object, which is what
            # the engine's reuse checks for (``LaunchResult.reads_only_itself``);
            # an equal copy made every launch of the file be checked again
            # once a second while typing under a project config.
            settings = known[2]
        self._settings[path] = (base, now, settings)
        return settings

    def forget_project_settings(self) -> None:
        """A project config file changed: read each document's again."""
        self._settings.clear()

    def apply_settings(self, data: Any) -> None:
        if isinstance(data, dict) and isinstance(data.get(SECTION), dict):
            data = data[SECTION]
        if isinstance(data, dict) and isinstance(data.get("settings"), dict):
            data = data["settings"]
        self.editor_settings = data if isinstance(data, dict) else {}
        self.base_settings = Settings.from_mapping(self.editor_settings, root=self.root)

    async def settings_changed(self) -> None:
        settings = self.base_settings
        loop = asyncio.get_running_loop()
        # Through the worker, so no lint runs while the engine's caches reset.
        await loop.run_in_executor(self.executor, self.engine.set_settings, settings)
        self.invalidate(list(self.docs), reason="settings")

    def source(self, st: DocState, result: LintResult, path: str | None = None) -> SourceText:
        """A document (or a file the lint read) measured in the client's encoding."""
        p = path or st.path
        base = result.source if p == result.path else result.sources.get(p)
        if base is None:
            return SourceText(self.read_file(p) or "", st.encoding)
        if base.encoding == st.encoding:
            return base
        return base.with_encoding(st.encoding)

    # -- linting -------------------------------------------------------------

    def _lint_job(self, st: DocState, text: str, language_id: str | None, overlay: dict[str, str],
                  versions: dict[str, int | None], version: int | None):
        """Lint and convert to LSP (both CPU work), in the worker or, for a
        quick re-lint while it is idle, on the loop (see ``lint``)."""
        started = time.perf_counter()
        self._overlay = overlay
        try:
            result = self.engine.lint(st.path, text, language_id, settings=self.settings_for(st.path))
        finally:
            self._overlay = {}
        if st.conversion is None:
            st.conversion = self.document_forms()
        published, encoding = self.convert(st.path, result, version, versions, st.conversion)
        st.lint_s = time.perf_counter() - started
        return result, published, encoding

    def document_forms(self) -> forms.DocumentForms:
        converter = self.server.converter
        return forms.DocumentForms(converter.unstructure, converter.structure)

    async def verified_fixes(self, result: LintResult, diags: list) -> list[set[int]]:
        """For each engine diagnostic of ``result``, the indices of its fixes
        that a re-lint shows to work (checked in the worker, with the open
        documents' text, as a lint would see it)."""
        overlay = {path_of(u): doc.source for u, doc in self.server.workspace.text_documents.items()}

        def job() -> list[set[int]]:
            self._overlay = overlay
            try:
                out = []
                for d in diags:
                    kept = self.engine.verified_fixes(result, d)
                    out.append({i for i, fx in enumerate(d.fixes) if any(fx is k for k in kept)})
                return out
            finally:
                self._overlay = {}

        return await asyncio.get_running_loop().run_in_executor(self.executor, job)

    def convert(self, path: str, result: LintResult, version: int | None, versions: dict[str, int | None],
                document: forms.DocumentForms | None = None) -> tuple[forms.Published, str]:
        """The LSP diagnostics of ``result`` (see ``forms``) and the position
        encoding they are in; ``document`` holds the document's previous
        conversion (None: a file that is not open)."""
        encoding = self.server.encoding
        sources: dict[str, SourceText] = {}

        def source_of(p: str) -> SourceText:
            src = sources.get(p)
            if src is None:
                base = result.source if p == result.path else result.sources.get(p)
                if base is not None:
                    # The engine's line index of the whole text: building
                    # another one cost a millisecond or two per keystroke.
                    src = base.with_encoding(encoding)
                else:
                    src = SourceText(self.read_file(p) or "", encoding)
                sources[p] = src
            return src

        def version_of(p: str) -> int | None:
            return version if p == path else versions.get(p)

        closed = document is None
        if closed:
            document = self.document_forms()
        return document.convert(result, path, encoding, source_of, version_of, closed=closed), encoding

    def schedule(self, uri: str, delay: float | None = None, *, publish: bool = True) -> None:
        st = self.docs.get(uri)
        if st is None:
            return
        if st.pending is not None and not st.pending.done():
            st.pending.cancel()
        if delay is None:
            # A keystroke after a pause is linted at once, and so is one
            # that finds the edit before it linted already, however soon it
            # comes (a keystroke's lint takes a few ms: a client waiting for
            # each answer is not a burst).  Edits arriving back to back (a
            # paste, a client replaying changes) or while a lint runs wait
            # for a pause, so a burst is one lint.
            now = time.monotonic()
            caught_up = st.result_stamp == st.stamp - 1
            burst = now - st.last_scheduled < BURST_GAP_S and not caught_up
            st.last_scheduled = now
            delay = self.debounce if burst or self.lints_running else 0
        st.pending = asyncio.ensure_future(self._lint_later(uri, delay, publish))

    async def _lint_later(self, uri: str, delay: float, publish: bool) -> None:
        try:
            await asyncio.sleep(delay)
            await self.lint(uri, publish=publish)
        except asyncio.CancelledError:
            pass
        except Exception as exc:
            self.server.log_error(f"linting {uri} failed", exc)

    async def lint(self, uri: str, *, publish: bool = True) -> DocState | None:
        """Lint the document as it is now (or wait for the lint already doing
        that); None if it changed or closed meanwhile."""
        server = self.server
        for _ in range(5):
            st = self.docs.get(uri)
            doc = server.text_document(uri)
            if st is None or doc is None:
                return None
            version = doc.version
            if st.result is not None and st.result_stamp == st.stamp and st.result_version == version:
                if publish:
                    self.show(st)
                return st
            stamp = st.stamp
            if st.inflight is not None and st.inflight[0] == stamp and not st.inflight[1].done():
                await asyncio.shield(st.inflight[1])
                continue
            overlay, versions = {}, {}
            for other_uri, other in server.workspace.text_documents.items():
                p = path_of(other_uri)
                overlay[p] = other.source
                versions[p] = other.version
            job = (st, doc.source, doc.language_id, overlay, versions, version)
            if st.lint_s is not None and st.lint_s < INLINE_LINT_S and self.executor.idle:
                # A keystroke's re-lint is a few milliseconds; handing it to
                # the worker and back cost two thread wake-ups and GIL
                # hand-overs, as long again on a loaded machine.  Nothing
                # else runs in the engine meanwhile (the worker is idle and
                # the loop is here), and nothing can change the document.
                self._take(st, stamp, version, self._lint_job(*job), publish)
                return st
            loop = asyncio.get_running_loop()
            fut = loop.run_in_executor(self.executor, self._lint_job, *job)
            st.inflight = (stamp, fut)
            self.lints_running += 1
            try:
                result, published, encoding = await asyncio.shield(fut)
            except asyncio.CancelledError:
                # Cancelled by a newer edit: the worker finishes this lint,
                # but nobody will publish it.
                server.log_info(f"dropped the lint of {uri} v{version}: the document changed meanwhile")
                raise
            finally:
                self.lints_running -= 1
                if st.inflight is not None and st.inflight[1] is fut:
                    st.inflight = None
            current = server.text_document(uri)
            if self.docs.get(uri) is not st or current is None or current.version != version or st.stamp != stamp:
                # The editor moved on while the worker ran: these diagnostics
                # describe text that no longer exists.
                server.log_info(f"dropped the lint of {uri} v{version}: the document changed meanwhile")
                continue
            self._take(st, stamp, version, (result, published, encoding), publish)
            return st
        return None

    def _take(self, st: DocState, stamp: int, version: int | None, job: tuple, publish: bool) -> None:
        """Make a lint the document's state and publish it.  The state it
        replaces is freed only after the publish: on a long file that is
        thousands of objects (freeing them takes ~3 ms at 100,000 lines,
        0.03 ms at 2,000), none of them needed to show the new diagnostics."""
        replaced = st.result
        self._accept(st, stamp, version, *job)
        if publish:
            self.show(st)
        # What the document reads is noted after the publish: it walks every
        # launch, and nothing the publish shows depends on it.
        self._note_reads(st)
        del replaced
        self._settle_heap()

    def _accept(self, st: DocState, stamp: int, version: int | None, result: LintResult,
                published: forms.Published, encoding: str) -> None:
        """Make a lint of the document's current text its state (with
        ``_note_reads``, which ``_take`` calls once it has published)."""
        st.result, st.result_stamp, st.result_version, st.encoding = result, stamp, version, encoding
        st.latest = published

    def _note_reads(self, st: DocState) -> None:
        """What the document's last lint read besides its text: the files it
        depends on, and the release of a --config file it is."""
        result = st.result
        st.deps = frozenset(p for p in result.sources if p != st.path)
        st.config_release = next(
            (lr.release.version for lr in result.launches if lr.launch.entry is Entry.CONFIG_FILE), st.config_release
        )
        # From what the parse and the lint kept: a launch's invocation is
        # read lazily, and reading each one here would undo the reuse.
        st.has_config_ref = bool(result.parsed.config_refs)
        # Only a launch naming a --config file can wait for it.
        st.waits_for_config = st.has_config_ref and any(lr.config_state == "missing" for lr in result.launches)

    def _settle_heap(self) -> None:
        """Keep the cyclic garbage collector off the keystroke path.

        The engine's per-document state is tens of thousands of objects that
        outlive every lint; a full collection traversed all of them (30 to
        110 ms, every ~65 keystrokes: the latency's p99).  Frozen, they are
        left out of every automatic collection, which then looks only at what
        the last lint made.  The engine frees what it replaces by reference
        counting (no cycles), so freezing holds on to little; the full
        collection that would catch a frozen cycle runs once typing pauses.
        """
        gc.freeze()
        if self._idle_gc is not None:
            self._idle_gc.cancel()
        self._idle_gc = asyncio.get_running_loop().call_later(IDLE_GC_S, self._collect_idle)

    def _collect_idle(self) -> None:
        self._idle_gc = None
        if self.lints_running:
            return  # the lint's end settles the heap again
        gc.unfreeze()
        gc.collect()
        gc.freeze()

    def show(self, st: DocState) -> None:
        """Make the document's latest lint the diagnostics the editor sees:
        pushed to it, or returned to its next pull."""
        st.shown = st.latest
        st.result_id = st.shown.result_id if st.shown is not None else None
        st.diagnostics_version = st.result_version
        if self.pull or st.published_id == st.result_id or st.shown is None:
            return
        st.published_id = st.result_id
        self.server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=st.uri, diagnostics=st.shown.encoded(), version=st.diagnostics_version)
        )

    def invalidate(self, uris_: list[str], *, reason: str) -> None:
        """Something other than the text changed (settings, a file read):
        re-lint, and ask a pulling client to pull again."""
        for uri in uris_:
            st = self.docs.get(uri)
            if st is not None:
                st.stamp += 1
                self.schedule(uri, 0 if reason != "dependency" else None)
        if self.pull and self.refresh_supported and uris_:
            asyncio.ensure_future(self.refresh_after(uris_))

    async def refresh_after(self, uris_: list[str]) -> None:
        """Lint these documents, then ask a pulling client to pull again."""
        try:
            await asyncio.gather(*(self.lint(u) for u in uris_))
            await self.server.workspace_diagnostic_refresh_async(None)
        except Exception as exc:
            self.server.log_error("diagnostic refresh failed", exc)

    def dependents(self, path: str) -> list[str]:
        yaml = path.endswith((".yaml", ".yml"))
        return [
            u for u, st in self.docs.items()
            if st.path != path and (path in st.deps or (yaml and st.waits_for_config))
        ]

    def touch_dependents(self, path: str) -> None:
        """``path`` changed: re-lint the documents that read it."""
        deps = self.dependents(path)
        if deps:
            self.invalidate(deps, reason="dependency")
