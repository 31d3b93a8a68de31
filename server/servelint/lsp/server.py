"""The language server: the engine, adapted to LSP (pygls 2).

Everything that decides *what* is wrong with a launch lives in the engine;
this module only decides *when* to ask it (debounced, off the message loop,
never publishing for a version the editor has moved past) and how to hand the
answers to the editor (push or pull diagnostics, code actions, hover,
completion).

Threading: the asyncio loop answers messages; ``Engine`` calls run in one
worker thread, so the engine (which keeps per-document state for incremental
re-checking) is never entered twice at once.  The one exception, a quick
re-lint while the worker is idle, runs on the loop itself, where nothing else
can enter the engine either.  Handlers only read ``LintResult`` objects,
which the engine does not mutate after returning them.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import logging
import os
import re
import stat
import sys
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from lsprotocol import types
from pygls import uris
from pygls.lsp.server import LanguageServer
from pygls.workspace import TextDocument

from .. import __version__
from ..diagnostics import Related
from ..engine import Engine, LintResult
from ..model import Entry
from ..settings import CONFIG_NAMES, Settings, for_file
from ..text import SourceText
from . import convert

log = logging.getLogger(__name__)

SECTION = "servelint"
FIX_ALL_KIND = "source.fixAll.servelint"
RELEASE_COMMAND = "servelint.releaseFor"
LANGUAGES = ("shellscript", "yaml", "dockercompose", "dockerfile")

# A keystroke is linted at once when the worker is idle; while it is busy,
# the next lint waits for this pause in typing, so a burst is one lint.
DEBOUNCE_S = 0.03
# Edits closer together than this are one burst (no person types that fast).
BURST_GAP_S = 0.01
# After this long without a lint the heap is collected in full (see _settle_heap).
IDLE_GC_S = 2.0
# Allocations between two collections of the youngest generation (Python's
# default: 700).  A keystroke allocates a few thousand objects that nearly all
# die young; with the default, two or three collections a keystroke walked
# the survivors, and the heap is frozen after each lint anyway.
GC_YOUNG = 20_000
# How long a document's settings (its project config) are taken as read.
SETTINGS_TTL_S = 1.0
# A document whose last lint took less than this is linted on the event loop
# itself when the worker is idle (see ServelintServer.lint).
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
    # The LSP form of ``result``'s diagnostics, shown or not yet.
    latest: tuple[list[types.Diagnostic], str] = ([], "")
    # The engine diagnostic each of ``latest`` was made from (its fixes are
    # verified when a code action asks for them).
    origins: list = field(default_factory=list)
    # Diagnostics as the editor sees them (pushed, or returned to a pull).
    diagnostics: list[types.Diagnostic] = field(default_factory=list)
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
    # Its diagnostics as last converted (used by the engine's thread only).
    lsp_cache: convert.DiagnosticCache | None = None
    last_scheduled: float = 0.0
    inflight: tuple[int, asyncio.Future] | None = None


class _Worker(ThreadPoolExecutor):
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


# Handler names that raise on purpose, so tests can check that a failing
# handler is logged and the session survives.
_INJECTED_FAULTS = frozenset(filter(None, os.environ.get("SERVELINT_LSP_INJECT_FAULT", "").split(",")))


def _guard(default: Any = None):
    """Turn a handler's exception into a log message and a neutral answer,
    so one bad request (or a bug) never takes the session down."""

    def wrap(fn: Callable):
        if asyncio.iscoroutinefunction(fn):

            @functools.wraps(fn)
            async def run_async(self: "ServelintServer", *args, **kwargs):
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
        def run(self: "ServelintServer", *args, **kwargs):
            try:
                if fn.__name__ in _INJECTED_FAULTS:
                    raise RuntimeError(f"injected fault in {fn.__name__}")
                return fn(self, *args, **kwargs)
            except Exception as exc:
                self.log_error(f"{fn.__name__} failed", exc)
                return default() if callable(default) else default

        return run

    return wrap


class ServelintServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("servelint", __version__, converter_factory=convert.converter_factory)
        self.editor_settings: dict = {}
        self.base_settings = Settings()
        self.root: str | None = None
        self.docs: dict[str, DocState] = {}
        self.pull = False
        self.refresh_supported = False
        self.document_changes = False
        self.debounce = DEBOUNCE_S
        self.lints_running = 0
        self._idle_gc: asyncio.TimerHandle | None = None
        self._settings: dict[str, tuple[Settings, float, Settings]] = {}  # see settings_for
        self.executor = _Worker()
        # Open documents' texts for the lint running in the worker: a --config
        # file being edited is read from the editor, not from disk.
        self._overlay: dict[str, str] = {}
        self.engine = Engine(read_file=self._read_file)
        from .scan import WorkspaceScan

        self.scan = WorkspaceScan(self)

    # -- plumbing ------------------------------------------------------------

    def log_error(self, what: str, exc: BaseException) -> None:
        detail = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        log.error("%s: %s", what, detail)
        try:
            self.window_log_message(types.LogMessageParams(type=types.MessageType.Error, message=f"servelint: {what}: {detail}"))
        except Exception:  # the transport itself is gone
            pass

    def log_info(self, message: str) -> None:
        try:
            self.window_log_message(types.LogMessageParams(type=types.MessageType.Log, message=f"servelint: {message}"))
        except Exception:
            pass

    def report_server_error(self, error: Exception, source) -> None:
        # pygls shows these as pop-ups by default; a linter's hiccup belongs in the log.
        self.log_error(f"internal error ({getattr(source, '__name__', source)})", error)

    def _read_file(self, path: str) -> str | None:
        text = self._overlay.get(path)
        if text is not None:
            return text
        from ..engine.io import read_text_file

        return read_text_file(path)

    @property
    def encoding(self) -> str:
        enc = self.workspace.position_encoding
        return str(getattr(enc, "value", enc) or "utf-16")

    def path_of(self, uri: str) -> str:
        return uris.to_fs_path(uri) or uri

    def text_document(self, uri: str):
        doc = self.workspace.text_documents.get(uri)
        return doc

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
        self._settings[path] = (base, now, settings)
        return settings

    def source(self, st: DocState, result: LintResult, path: str | None = None) -> SourceText:
        """A document (or a file the lint read) measured in the client's encoding."""
        p = path or st.path
        base = result.source if p == result.path else result.sources.get(p)
        if base is None:
            return SourceText(self._read_file(p) or "", st.encoding)
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
        origins: list = []
        if st.lsp_cache is None:
            st.lsp_cache = convert.DiagnosticCache(self.protocol._converter.unstructure)
        diags, rid, encoding = self.convert(st.path, result, version, versions, origins, st.lsp_cache)
        st.lint_s = time.perf_counter() - started
        return result, diags, rid, encoding, origins

    async def verified_fixes(self, result: LintResult, diags: list) -> list[set[int]]:
        """For each engine diagnostic of ``result``, the indices of its fixes
        that a re-lint shows to work (checked in the worker, with the open
        documents' text, as a lint would see it)."""
        overlay = {self.path_of(u): doc.source for u, doc in self.workspace.text_documents.items()}

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
                origins: list | None = None,
                cache: convert.DiagnosticCache | None = None) -> tuple[list[types.Diagnostic], str, str]:
        """LSP diagnostics of ``result`` (and their id); ``origins`` receives
        the engine diagnostic each one was made from; ``cache`` holds the
        document's previous conversion."""
        encoding = self.encoding
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
                    src = SourceText(self._read_file(p) or "", encoding)
                sources[p] = src
            return src

        def version_of(p: str) -> int | None:
            return version if p == path else versions.get(p)

        closed = cache is None
        if closed:
            cache = convert.DiagnosticCache(self.protocol._converter.unstructure)
        cache.start()
        diags = self._to_lsp(path, result, source_of, version_of, origins, cache)
        # A closed file's report (a workspace scan) has no cache to compare
        # with: its id is a hash of what it says, the same in the next scan.
        rid = convert.result_id(diags, self.protocol._converter) if closed else cache.result_id(diags)
        return diags, rid, encoding

    def _to_lsp(self, path: str, result: LintResult, source_of, version_of, origins: list | None,
                cache: convert.DiagnosticCache) -> list[types.Diagnostic]:
        """Diagnostics of this document; those found in a --config file it
        reads are shown on the word naming that file, pointing at the place."""
        home: dict[int, Any] = {}
        # Only launches with findings in another file need their anchor: a
        # launch's invocation is read lazily, and reading all of them on
        # every keystroke would undo the engine's reuse.
        foreign = any(d.path != path for d in result.diagnostics)
        for lr in result.launches if foreign else ():
            if not any(d.path != path for d in lr.diagnostics):
                continue
            ref = lr.invocation.config_path if lr.invocation is not None else None
            anchor = ref.span if ref is not None and ref.path is None else lr.launch.entry_span
            for d in lr.diagnostics:
                home[id(d)] = anchor
        out = []
        for d in result.diagnostics:
            if d.path == path:
                out.append(cache.to_lsp(d, source_of, version_of))
                if origins is not None:
                    origins.append(d)
                continue
            anchor = home.get(id(d))
            if anchor is None:
                continue
            src = source_of(d.path)
            line, col = src.position(d.span.start)
            moved = replace(
                d,
                path=path,
                span=anchor,
                message=f"{os.path.basename(d.path)}:{line + 1}:{col + 1}: {d.message}",
                related=[Related(d.path, d.span, d.message)] + list(d.related),
            )
            lsp = cache.to_lsp(moved, source_of, version_of)
            lsp.data["origin"] = convert.uri_of(d.path)
            out.append(lsp)
            if origins is not None:
                origins.append(d)
        return out

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
            self.log_error(f"linting {uri} failed", exc)

    async def lint(self, uri: str, *, publish: bool = True) -> DocState | None:
        """Lint the document as it is now (or wait for the lint already doing
        that); None if it changed or closed meanwhile."""
        for _ in range(5):
            st = self.docs.get(uri)
            doc = self.text_document(uri)
            if st is None or doc is None:
                return None
            version = doc.version
            if st.result is not None and st.result_stamp == st.stamp and st.result_version == version:
                if publish:
                    self._show(st)
                return st
            stamp = st.stamp
            if st.inflight is not None and st.inflight[0] == stamp and not st.inflight[1].done():
                await asyncio.shield(st.inflight[1])
                continue
            overlay, versions = {}, {}
            for other_uri, other in self.workspace.text_documents.items():
                p = self.path_of(other_uri)
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
                result, diags, rid, encoding, origins = await asyncio.shield(fut)
            except asyncio.CancelledError:
                # Cancelled by a newer edit: the worker finishes this lint,
                # but nobody will publish it.
                self.log_info(f"dropped the lint of {uri} v{version}: the document changed meanwhile")
                raise
            finally:
                self.lints_running -= 1
                if st.inflight is not None and st.inflight[1] is fut:
                    st.inflight = None
            current = self.text_document(uri)
            if self.docs.get(uri) is not st or current is None or current.version != version or st.stamp != stamp:
                # The editor moved on while the worker ran: these diagnostics
                # describe text that no longer exists.
                self.log_info(f"dropped the lint of {uri} v{version}: the document changed meanwhile")
                continue
            self._take(st, stamp, version, (result, diags, rid, encoding, origins), publish)
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
            self._show(st)
        del replaced
        self._settle_heap()

    def _accept(self, st: DocState, stamp: int, version: int | None, result: LintResult,
                diags: list[types.Diagnostic], rid: str, encoding: str, origins: list) -> None:
        """Make a lint of the document's current text its state."""
        st.result, st.result_stamp, st.result_version, st.encoding = result, stamp, version, encoding
        st.latest = (diags, rid)
        st.origins = origins
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

    def _show(self, st: DocState) -> None:
        st.diagnostics, st.result_id = st.latest
        st.diagnostics_version = st.result_version
        if self.pull or st.published_id == st.result_id:
            return
        st.published_id = st.result_id
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=st.uri, diagnostics=st.diagnostics, version=st.diagnostics_version)
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
            asyncio.ensure_future(self._refresh_after(uris_))

    async def _refresh_after(self, uris_: list[str]) -> None:
        try:
            await asyncio.gather(*(self.lint(u) for u in uris_))
            await self.workspace_diagnostic_refresh_async(None)
        except Exception as exc:
            self.log_error("diagnostic refresh failed", exc)

    def dependents(self, path: str) -> list[str]:
        yaml = path.endswith((".yaml", ".yml"))
        return [
            u for u, st in self.docs.items()
            if st.path != path and (path in st.deps or (yaml and st.waits_for_config))
        ]

    # -- settings ------------------------------------------------------------

    def apply_settings(self, data: Any) -> None:
        if isinstance(data, dict) and isinstance(data.get(SECTION), dict):
            data = data[SECTION]
        if isinstance(data, dict) and isinstance(data.get("settings"), dict):
            data = data["settings"]
        self.editor_settings = data if isinstance(data, dict) else {}
        self.base_settings = Settings.from_mapping(self.editor_settings, root=self.root)

    async def fetch_settings(self) -> None:
        caps = self.client_capabilities
        if not (caps.workspace and caps.workspace.configuration):
            return
        try:
            items = await self.workspace_configuration_async(
                types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)])
            )
        except Exception as exc:
            self.log_error("workspace/configuration failed", exc)
            return
        if items and isinstance(items[0], dict):
            self.apply_settings(items[0])

    async def settings_changed(self) -> None:
        settings = self.base_settings
        loop = asyncio.get_running_loop()
        # Through the worker, so no lint runs while the engine's caches reset.
        await loop.run_in_executor(self.executor, self.engine.set_settings, settings)
        self.scan.forget()
        self.invalidate(list(self.docs), reason="settings")


class _LspLines(TextDocument):
    """A document split into lines the way LSP positions count them.

    pygls splits with ``str.splitlines``, which also breaks at U+2028, form
    feeds, NEL and other separators that are no line break to an editor: an
    incremental edit after one of them landed on the wrong line, and every
    lint and fix from then on described text the user never wrote.
    """

    _split: tuple[str, tuple[str, ...]] | None = None  # (the text, its lines)
    _index: SourceText | None = None  # the line index of the text, derived through each edit

    @property
    def lines(self):
        text = self.source
        split = self._split
        if split is not None and split[0] is text:
            return split[1]
        parts = text.splitlines(True)
        # Counting line breaks is far cheaper than splitting by a regex: the
        # regex runs only for text that holds another separator.
        breaks = text.count("\n") + text.count("\r") - text.count("\r\n")
        if len(parts) == breaks + (0 if not text or text.endswith(("\n", "\r")) else 1):
            lines = tuple(parts)
        else:
            lines = tuple(_LSP_LINE.findall(text))
        self._split = (text, lines)
        return lines

    def _apply_incremental_change(self, change: types.TextDocumentContentChangePartial) -> None:
        """pygls' result, without its walk over every line of the document
        per keystroke: the text is cut at the edit, and only the lines around
        it are split again (one line either side, where a carriage return
        and a line feed could join into one break)."""
        lines = self.lines
        rng = self.position_codec.range_from_client_units(lines, change.range)
        sl, sc, el, ec = rng.start.line, rng.start.character, rng.end.line, rng.end.character
        if not 0 <= sl <= el < len(lines):
            super()._apply_incremental_change(change)  # its own rules at and past the end
            return
        first, last = max(sl - 1, 0), min(el + 1, len(lines) - 1)
        window = "".join((*lines[first:sl], lines[sl][:sc], change.text, lines[el][ec:], *lines[el + 1:last + 1]))
        text = self.source
        index = self._index
        if index is None or index.text is not text:
            index = SourceText(text)
        if index.has_cr:
            # The index would be read again from the whole text each time.
            head = sum(map(len, lines[:first]))
        else:
            head = index.line_start(first)  # not a sum over every line above the edit
        tail = head + sum(map(len, lines[first:last + 1]))
        source = text[:head] + window + text[tail:]
        self._source = source
        self._split = (source, lines[:first] + tuple(_LSP_LINE.findall(window)) + lines[last + 1:])
        self._index = SourceText(source, edited=(index, head, tail, head + len(window)))


_LSP_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def _use_lsp_lines(workspace) -> None:
    def create(doc_uri, source=None, version=None, language_id=None):
        return _LspLines(doc_uri, source=source, version=version, language_id=language_id,
                         sync_kind=workspace._sync_kind, position_codec=workspace.position_codec)

    workspace._create_text_document = create


def create_server() -> ServelintServer:
    server = ServelintServer()
    from . import actions, completion, hover

    # -- lifecycle -----------------------------------------------------------

    @server.feature(types.INITIALIZE)
    def initialize(ls: ServelintServer, params: types.InitializeParams) -> None:
        caps = params.capabilities
        td = caps.text_document
        ls.pull = bool(td is not None and td.diagnostic is not None)
        ws = caps.workspace
        ls.refresh_supported = bool(ws and ws.diagnostics and ws.diagnostics.refresh_support)
        ls.document_changes = bool(ws and ws.workspace_edit and ws.workspace_edit.document_changes)
        if params.root_uri:
            ls.root = uris.to_fs_path(params.root_uri)
        elif params.root_path:
            ls.root = params.root_path
        _use_lsp_lines(ls.workspace)
        ls.apply_settings(params.initialization_options)
        ls.engine.set_settings(ls.base_settings)  # no lint has run yet
        # The first lint would otherwise pay for importing the parsers and
        # rules and reading the records while the user waits.
        ls.executor.submit(_warm_up, ls.engine)
        if ls.pull:
            # Registered only for clients that pull, so nobody gets both.
            server.feature(
                types.TEXT_DOCUMENT_DIAGNOSTIC,
                types.DiagnosticOptions(identifier=SECTION, inter_file_dependencies=True, workspace_diagnostics=True),
            )(document_diagnostic)
            server.feature(types.WORKSPACE_DIAGNOSTIC)(workspace_diagnostic)

    @server.feature(types.INITIALIZED)
    async def initialized(ls: ServelintServer, params: types.InitializedParams) -> None:
        await ls.fetch_settings()
        # Documents opened before the settings arrived were linted with defaults.
        await ls.settings_changed()
        await _register_watchers(ls)
        settings = ls.base_settings
        ls.window_log_message(types.LogMessageParams(
            type=types.MessageType.Info,
            message=f"servelint {__version__} ready: {'pull' if ls.pull else 'push'} diagnostics, "
                    f"lint {settings.lint_run}, vLLM release setting {settings.vllm_version or '(none)'}",
        ))

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: ServelintServer, params: Any) -> None:
        for st in ls.docs.values():
            if st.pending is not None:
                st.pending.cancel()
        ls.executor.shutdown(wait=False, cancel_futures=True)

    # -- documents -----------------------------------------------------------

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @_guard()
    def did_open(ls: ServelintServer, params: types.DidOpenTextDocumentParams) -> None:
        uri = params.text_document.uri
        st = ls.docs.get(uri) or DocState(uri, ls.path_of(uri))
        st.stamp += 1
        ls.docs[uri] = st
        ls.schedule(uri, 0)
        _touch_dependents(ls, st.path)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @_guard()
    def did_change(ls: ServelintServer, params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        st = ls.docs.get(uri)
        if st is None:
            return
        st.stamp += 1
        on_type = ls.settings_for(st.path).lint_run != "onSave"
        # onSave: the analysis still follows the text (hover and completion
        # need it) but the diagnostics shown change only on save.
        ls.schedule(uri, publish=on_type)
        if on_type:
            _touch_dependents(ls, st.path)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    @_guard()
    def did_save(ls: ServelintServer, params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        st = ls.docs.get(uri)
        if st is None:
            return
        if ls.settings_for(st.path).lint_run == "onSave":
            st.stamp += 1
            ls.schedule(uri, 0)
            _touch_dependents(ls, st.path)
            if ls.pull and ls.refresh_supported:
                asyncio.ensure_future(ls._refresh_after([uri]))

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @_guard()
    def did_close(ls: ServelintServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        st = ls.docs.pop(uri, None)
        if st is None:
            return
        if st.pending is not None:
            st.pending.cancel()
        ls.executor.submit(ls.engine.forget, st.path)
        if not ls.pull:
            ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        # Readers of this file go back to its text on disk.
        _touch_dependents(ls, st.path)

    # -- pull diagnostics ----------------------------------------------------

    @_guard()
    async def document_diagnostic(ls: ServelintServer, params: types.DocumentDiagnosticParams):
        uri = params.text_document.uri
        st = ls.docs.get(uri)
        if st is None:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        if ls.settings_for(st.path).lint_run != "onSave" or st.result_id is None:
            fresh = await ls.lint(uri)
            st = fresh or st
        if st.result_id is not None and params.previous_result_id == st.result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=st.result_id)
        return types.RelatedFullDocumentDiagnosticReport(items=st.diagnostics, result_id=st.result_id)

    @_guard(lambda: types.WorkspaceDiagnosticReport(items=[]))
    async def workspace_diagnostic(ls: ServelintServer, params: types.WorkspaceDiagnosticParams):
        previous = {p.uri: p.value for p in params.previous_result_ids}
        items: list = []
        for uri in list(ls.docs):
            st = ls.docs.get(uri)
            if st is None:
                continue
            if ls.settings_for(st.path).lint_run != "onSave" or st.result_id is None:
                st = await ls.lint(uri) or st
            if st.result_id is None:
                continue
            if previous.get(uri) == st.result_id:
                items.append(types.WorkspaceUnchangedDocumentDiagnosticReport(
                    uri=uri, version=st.diagnostics_version, result_id=st.result_id))
            else:
                items.append(types.WorkspaceFullDocumentDiagnosticReport(
                    uri=uri, version=st.diagnostics_version, items=st.diagnostics, result_id=st.result_id))
        # Files on disk that are not open: the Problems panel shows them too.
        items.extend(await ls.scan.reports(previous, params.work_done_token))
        return types.WorkspaceDiagnosticReport(items=items)

    # -- configuration and files ---------------------------------------------

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    @_guard()
    async def did_change_configuration(ls: ServelintServer, params: types.DidChangeConfigurationParams) -> None:
        caps = ls.client_capabilities
        if caps.workspace and caps.workspace.configuration:
            await ls.fetch_settings()
        elif params.settings is not None:
            ls.apply_settings(params.settings)
        await ls.settings_changed()

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @_guard()
    async def did_change_watched_files(ls: ServelintServer, params: types.DidChangeWatchedFilesParams) -> None:
        project_config = False
        touched: set[str] = set()
        ls._settings.clear()
        for change in params.changes:
            path = ls.path_of(change.uri)
            if os.path.basename(path) in CONFIG_NAMES:
                project_config = True
            if change.uri not in ls.workspace.text_documents:
                touched.update(ls.dependents(path))
        ls.scan.changed([ls.path_of(c.uri) for c in params.changes])
        if project_config:
            ls.scan.forget()
            ls.invalidate(list(ls.docs), reason="settings")
        elif touched:
            ls.invalidate(sorted(touched), reason="dependency")

    @server.command(RELEASE_COMMAND)
    @_guard()
    async def release_for(ls: ServelintServer, *args: Any):
        uri = args[0] if args else None
        if isinstance(uri, dict):
            uri = uri.get("uri")
        if not isinstance(uri, str):
            return None
        st = await ls.lint(uri, publish=False) if uri in ls.docs else None
        result = st.result if st is not None else None
        if result is None:
            path = ls.path_of(uri)
            text = ls._read_file(path)
            if text is None:
                return None
            loop = asyncio.get_running_loop()
            result = await loop.run_in_executor(
                ls.executor, lambda: Engine(ls.settings_for(path), read_file=ls._read_file).lint(path, text)
            )
        return release_of(ls, result)

    # -- features ------------------------------------------------------------

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL_KIND]),
    )
    @_guard(list)
    async def code_action(ls: ServelintServer, params: types.CodeActionParams):
        return await actions.code_actions(ls, params)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @_guard()
    async def on_hover(ls: ServelintServer, params: types.HoverParams):
        return await hover.hover(ls, params)

    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION,
        types.CompletionOptions(trigger_characters=["-", "=", " ", '"', "{", "."]),
    )
    @_guard()
    async def on_completion(ls: ServelintServer, params: types.CompletionParams):
        return await completion.complete(ls, params)

    return server


def release_of(ls: ServelintServer, result: LintResult) -> dict | None:
    if result.launches:
        choice = result.launches[0].release
    else:
        from ..release import choose

        settings = ls.settings_for(result.path)
        choice = choose(result.parsed, None, setting=settings.vllm_version,
                        use_installed=settings.use_installed_vllm, line_of=result.source.line_of)
    out = {"version": choice.version, "reason": choice.reason}
    others = sorted({lr.release.version for lr in result.launches[1:]} - {choice.version})
    if others:
        out["others"] = others
    return out


def _warm_up(engine: Engine) -> None:
    try:
        engine.lint("warm-up.sh", "vllm serve m --port 1\n")
        engine.forget("warm-up.sh")
        engine.records  # noqa: B018 - loads them
    except Exception:  # only an optimisation
        log.exception("warm-up failed")


def _touch_dependents(ls: ServelintServer, path: str) -> None:
    deps = ls.dependents(path)
    if deps:
        ls.invalidate(deps, reason="dependency")


async def _register_watchers(ls: ServelintServer) -> None:
    caps = ls.client_capabilities
    ws = caps.workspace
    if not (ws and ws.did_change_watched_files and ws.did_change_watched_files.dynamic_registration):
        return
    watchers = [types.FileSystemWatcher(glob_pattern=f"**/{name}") for name in CONFIG_NAMES]
    # --config files, whose edits on disk change the launches that read them.
    watchers += [types.FileSystemWatcher(glob_pattern="**/*.{yaml,yml}")]
    try:
        await ls.client_register_capability_async(
            types.RegistrationParams(
                registrations=[
                    types.Registration(
                        id="servelint-watched-files",
                        method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                        register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
                    )
                ]
            )
        )
    except Exception as exc:  # a client that advertises but refuses
        ls.log_info(f"could not register file watchers: {exc}")


def run(mode: str = "stdio", host: str = "127.0.0.1", port: int = 2087) -> int:
    logging.basicConfig(level=os.environ.get("SERVELINT_LOG", "WARNING").upper(), format="%(levelname)s %(name)s: %(message)s")
    server = create_server()
    gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])
    if mode == "tcp":
        server.start_tcp(host, port)
    elif mode == "ws":
        try:
            import websockets  # noqa: F401
        except ImportError:
            print("servelint lsp --ws needs the websockets package: pip install 'pygls[ws]'", file=sys.stderr)
            return 2
        server.start_ws(host, port)
    else:
        _start_io(server)
    return 0


class _PipeReader:
    """stdin read by the event loop itself.

    pygls reads stdin with blocking calls in a thread pool: three or four
    thread hand-offs for every message (each header line, then the body),
    each one waiting for the OS to schedule a thread and for the GIL, which
    the lint worker may hold.  A keystroke paid them before it was even seen.
    """

    def __init__(self, stream: asyncio.StreamReader) -> None:
        self.stream = stream
        self.handled = False

    async def readline(self) -> bytes:
        if self.handled:
            # One message per loop turn, however fast they arrive (as with
            # pygls' reader): what a message started, a lint or an answer,
            # gets going before the next message is handled.
            self.handled = False
            await asyncio.sleep(0)
        try:
            return await self.stream.readline()
        except ValueError:  # a header line over the limit: not a header pygls knows
            return b"X-Overlong-Header: dropped\r\n"

    async def readexactly(self, n: int) -> bytes:
        self.handled = True
        try:
            return await self.stream.readexactly(n)
        except asyncio.IncompleteReadError:
            return b""  # the client went away mid-message: the end, as for pygls


def _pipe_stdin():
    """stdin, when the event loop can watch it: a pipe or a socket (what
    editors give a server) that is not also stdout, which the loop would
    otherwise make non-blocking under pygls' blocking writes."""
    try:
        stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
        info_in, info_out = os.fstat(stdin.fileno()), os.fstat(stdout.fileno())
    except (AttributeError, OSError, ValueError):
        return None
    if not (stat.S_ISFIFO(info_in.st_mode) or stat.S_ISSOCK(info_in.st_mode)):
        return None
    if (info_in.st_dev, info_in.st_ino) == (info_out.st_dev, info_out.st_ino):
        return None
    return stdin


def _start_io(server: ServelintServer) -> None:
    """pygls' ``start_io`` with stdin read on the event loop (see _PipeReader)."""
    stdin = _pipe_stdin()
    if stdin is None:
        server.start_io()
        return
    from pygls.io_ import StdoutWriter, run_async

    server._stop_event = threading.Event()
    server.protocol.set_writer(StdoutWriter(sys.stdout.buffer))

    async def serve() -> None:
        loop = asyncio.get_running_loop()
        stream = asyncio.StreamReader(limit=1 << 20)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stream), stdin)
        await run_async(stop_event=server._stop_event, reader=_PipeReader(stream), protocol=server.protocol,
                        logger=log, error_handler=server.report_server_error)

    # As pygls' own start_io does.
    try:
        asyncio.run(serve())
    except BrokenPipeError:
        log.error("Connection to the client is lost! Shutting down the server.")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()
