"""The engine: document text → diagnostics, re-checking only what an edit touched.

For each document: parse it into launches; for each launch choose the vLLM
release, read the launch with that release's parser semantics
(``servelint.argv``), merge its ``--config`` file, run the rules that apply,
and turn findings into diagnostics (joined to error records, filtered by
suppressions and settings).

Incremental work: the engine keeps, per document, the results of the last
lint.  A launch whose text, environment, release and config file are
unchanged reuses its diagnostics (shifted if the launch moved).  In a launch
that did change, a rule is re-run only if one of the inputs it declares
(``Rule.reads``) changed; ``rule_evaluations`` counts the runs.
"""

from __future__ import annotations

from bisect import bisect_left
import os
import stat
from collections.abc import Mapping
from functools import partial
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable

from . import LazyLogger, argv, knowledge
from .diagnostics import Diagnostic, Severity
from .model import Entry, Env, Launch, ParsedDocument, ParseProblem, Word
from .parse import parse_document
from .parse.entry import config_refs
from .release import ReleaseChoice, choose
from .rules import Context, Finding, Rule, invocation_rules
from .rules.meta import FileTooLarge, InternalError, TooManyLaunches, UnusedSuppression
from .rules.parse_level import BY_PROBLEM, JUDGED_BY_RULES
from .settings import Settings
from .text import KnownEdit, SourceText, Span, edit_range

log = LazyLogger(__name__)

# Files larger than this are not linted (an information diagnostic says so):
# no launch file is this big, and an editor must stay responsive.
MAX_DOCUMENT_CHARS = 5_000_000

INTERNAL_ERROR_CODE = InternalError.code


@dataclass(slots=True)
class LaunchResult:
    """A launch's lint: its release, invocation and diagnostics, kept for the next lint."""

    launch: Launch
    release: ReleaseChoice
    _invocation: "argv.Invocation | None"
    diagnostics: list[Diagnostic]
    # rule name → (input signature, diagnostics, the launch's span when they were made)
    by_rule: dict[str, tuple[tuple, list[Diagnostic], Span]] = field(default_factory=dict)
    key: tuple = ()
    base: int = 0
    # A launch that only moved reuses its diagnostics (shifted); its
    # invocation, whose spans moved too, is read again only when asked for.
    _reread: "Callable[[], argv.Invocation] | None" = None

    @property
    def context(self) -> tuple:
        """What the launch was checked in besides its own text: (release
        version, the reason for that release, config state, settings).  The
        key ends with it, so that two launches share a key only when they
        share it too."""
        return self.key[-4:]

    @property
    def config_state(self) -> str:
        """The launch's --config file as the lint found it: "" (none, or
        read), "missing" or "not-yaml" (a digest when read)."""
        return self.key[-2] if len(self.key) >= 4 else ""

    @property
    def invocation(self) -> "argv.Invocation | None":
        if self._invocation is None and self._reread is not None:
            self._invocation = self._reread()
            self._reread = None
        return self._invocation


@dataclass
class LintResult:
    """One document's lint: its parse, diagnostics and launches."""

    path: str
    source: SourceText
    parsed: ParsedDocument
    # Each diagnostic's ``fixes`` are candidates: ``Engine.verified_fixes``
    # (or ``Engine.checked``) keeps those a re-lint shows to work.  Checking
    # costs a re-lint per fix, so it is done only for what is about to be
    # offered (a code action, ``--fix``, the CLI's report), never per keystroke.
    diagnostics: list[Diagnostic]
    launches: list[LaunchResult]
    sources: dict[str, SourceText] = field(default_factory=dict)
    settings: Settings | None = None
    # id(diagnostic) → its verified fixes; the diagnostics live as long as
    # this result, so their ids are stable keys.
    verified: dict[int, list] = field(default_factory=dict, repr=False)

    def source_of(self, path: str) -> SourceText:
        return self.sources.get(path) or (self.source if path == self.path else SourceText(""))

    def text_of(self, path: str) -> str | None:
        src = self.sources.get(path) or (self.source if path == self.path else None)
        return src.text if src is not None else None


def too_large(path: str, size: str) -> Diagnostic:
    """The information that a file is not linted; ``size`` says how big it is."""
    return Diagnostic(
        path, Span(0, 0), FileTooLarge.severity, FileTooLarge.code, FileTooLarge.name, FileTooLarge.category,
        f"servelint skips files over {MAX_DOCUMENT_CHARS:,} characters ({size} here)",
    )


def _read_text_file(path: str) -> str | None:
    try:
        # Non-blocking, and regular files only: a --config naming a FIFO or a
        # device must not hang the lint (and with it the language server).
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with open(fd, encoding="utf-8", errors="replace") as fh:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None
            return fh.read(MAX_DOCUMENT_CHARS + 1)
    except (OSError, ValueError):
        return None


class Engine:
    def __init__(
        self,
        settings: Settings | None = None,
        *,
        read_file: Callable[[str], str | None] | None = None,
        records=None,
        incremental: bool = True,
        reuse_rules: bool = True,
    ) -> None:
        """``incremental=False`` (``servelint check``, which reads each file
        once): keep nothing for a next lint of the same file.
        ``reuse_rules=False``: reuse unchanged launches, but re-run every rule
        of a launch that changed (no per-rule input signatures to build)."""
        self.settings = settings or Settings()
        self.incremental = incremental
        self.reuse_rules = incremental and reuse_rules
        self.read_file = read_file or _read_text_file
        self._records = records
        self._previous: dict[str, LintResult] = {}
        # --config files named by launches linted so far → that launch's release.
        self.config_releases: dict[str, ReleaseChoice] = {}
        self.rule_evaluations = 0
        self.launch_evaluations = 0
        self._rule_lists: dict[tuple, list[Rule]] = {}
        # Kept for a whole `check` run; an editor's engine forgets them after
        # each lint, so a model downloaded meanwhile is seen.
        self._models = _Models()
        self._env_keys = _EnvKeys()

    # -- records -------------------------------------------------------------

    @property
    def records(self):
        if self._records is None:
            from .records import RecordStore

            self._records = RecordStore.load(self.settings.records)
        return self._records

    def set_settings(self, settings: Settings) -> None:
        if settings.records != self.settings.records:
            self._records = None
        self.settings = settings
        self._previous.clear()

    def forget(self, path: str) -> None:
        self._previous.pop(path, None)

    def adopt(self, result: "LintResult") -> None:
        """Take ``result`` (another engine's lint) as this engine's last lint
        of its document, so the next lint of that document is incremental."""
        if self.incremental:
            self._previous[result.path] = result

    # -- linting -------------------------------------------------------------

    def lint(self, path: str, text: str, language_id: str | None = None, settings: Settings | None = None) -> LintResult:
        settings = settings or self.settings
        if self.incremental:
            self._models.clear()
        self._env_keys.trim()
        if len(text) > MAX_DOCUMENT_CHARS:
            # Not even a line index: that alone is a second of work on 50 MB.
            self._previous.pop(path, None)
            return LintResult(path, SourceText(""), ParsedDocument(path=path, form=None),
                              [too_large(path, f"{len(text):,} characters")], [])
        previous = self._previous.get(path)
        edit = _Edit(*edit_range(previous.source.text, text)) if previous is not None else None
        source = SourceText(text, edited=None if edit is None else (previous.source, edit.start, edit.old_end, edit.new_end))
        try:
            parsed = parse_document(path, text, language_id, previous.parsed if previous else None,
                                    settings.max_launches,
                                    None if edit is None else KnownEdit(previous.source.text, text, edit.start, edit.old_end, edit.new_end))
        except Exception as exc:  # a parser bug must not take the editor down
            log.exception("parser failed on %s", path)
            parsed = ParsedDocument(path=path, form=None)
            diag = Diagnostic(
                path, Span(0, 0), Severity.ERROR, INTERNAL_ERROR_CODE, InternalError.name, "parse-error",
                f"servelint could not parse this file (internal error: {type(exc).__name__}: {exc}); please report it",
            )
            return LintResult(path, source, parsed, [diag], [])

        old_launches = previous.launches if previous else []
        results: list[LaunchResult] = []
        sources: dict[str, SourceText] = {path: source}
        diagnostics: list[Diagnostic] = []
        doc_release = choose(parsed, None, setting=settings.vllm_version,
                             use_installed=settings.use_installed_vllm, line_of=source.line_of)

        for p in parsed.problems:
            diagnostics.extend(self._problem_diagnostics(path, [p], doc_release.version, settings))
        launches = self._within_limit(path, parsed, settings, doc_release.version, diagnostics)

        # A launch whose text did not change (maybe moved) is found by its key;
        # one that changed is compared rule by rule with the launch that had
        # its place.
        by_key = _LazyIndex(old_launches, len(launches) - len(old_launches))
        # Whether each launch the edit left alone keeps the release it had:
        # the same hints around it, and (if it was decided by a hint written
        # elsewhere) that hint still on the line the reason names.
        if (previous is not None and previous.settings == settings
                and _same_hints(previous.parsed.release_hints, parsed.release_hints, edit)):
            lines_kept = (previous.source.text.count("\n", edit.start, edit.old_end)
                          == text.count("\n", edit.start, edit.new_end))
            stable = _Stable(edit, lines_kept)
        else:
            stable = None
        # The --config word of each launch, as the parser found it (a moved
        # launch's words are then not read just to look for one).
        refs: dict[int, Word] = {}
        for launch, word in parsed.config_refs:
            refs.setdefault(id(launch), word)
        # Launches of this lint by key: a file that repeats a launch word for
        # word (a generated matrix, a loop unrolled) checks it once.
        twins: dict[tuple, LaunchResult] = {}
        # Per-rule signatures (what each rule read) are made from the first
        # edit on: most launches of an open file are never edited, and
        # describing them all costs a third of a big script's memory.
        sign = self.reuse_rules and previous is not None
        for i, launch in enumerate(launches):
            old = old_launches[i] if i < len(old_launches) else None
            try:
                res = self._lint_launch(path, source, parsed, launch, old, settings, sources, by_key, edit, refs,
                                        twins, i, stable, sign)
            except Exception as exc:  # one launch servelint cannot read must not hide the others
                _log_failure(exc, "reading a launch failed on %s", path)
                diagnostics.append(Diagnostic(
                    path, launch.entry_span, Severity.WARNING, INTERNAL_ERROR_CODE, InternalError.name, "config",
                    f"servelint could not check this launch (internal error: {type(exc).__name__}: {exc}); "
                    "the other launches were checked; please report it",
                    vllm_version=doc_release.version,
                ))
                continue
            results.append(res)
            diagnostics.extend(res.diagnostics)

        diagnostics = self._apply_suppressions(path, source, parsed, diagnostics, settings)
        diagnostics.sort(key=Diagnostic.sort_key)
        # Two launches can share a place: both expand `$COMMON`, both sit
        # inside one unclosed `$(`.  The editor shows each finding there once.
        diagnostics = [d for i, d in enumerate(diagnostics)
                       if not i or d.sort_key() != diagnostics[i - 1].sort_key()]
        result = LintResult(path, source, parsed, diagnostics, results, sources, settings)
        if self.incremental:
            self._previous[path] = result
        return result

    def _within_limit(self, path: str, parsed: ParsedDocument, settings: Settings, version: str,
                      diagnostics: list[Diagnostic]) -> list[Launch]:
        """The launches to check: those before the place where the file goes
        past ``settings.max_launches`` (an SL012 there)."""
        limit = settings.max_launches
        launches = parsed.launches
        cut = parsed.unread if limit else None
        if limit and len(launches) > limit:
            past = launches[limit].entry_span
            if cut is None or past.start < cut.start:
                cut = past
        if cut is None:
            return launches
        if settings.enabled(TooManyLaunches.name, TooManyLaunches.code):
            diagnostics.append(Diagnostic(
                path, cut, settings.severity_for(TooManyLaunches.name, TooManyLaunches.code, TooManyLaunches.severity),
                TooManyLaunches.code, TooManyLaunches.name, TooManyLaunches.category,
                f"servelint checks at most {limit:,} launches in a file (the max-launches setting): "
                "launches from here to the end of the file are not checked",
                vllm_version=version,
            ))
        return [launch for launch in launches[:limit] if launch.span.start < cut.start]

    # -- fixes ---------------------------------------------------------------

    def verified_fixes(self, result: LintResult, d: Diagnostic) -> list:
        """The fixes of ``d`` (a diagnostic of ``result``) that a re-lint shows
        to fix it and break nothing; checked once per result."""
        if not d.fixes:
            return []
        got = result.verified.get(id(d))
        if got is None:
            from .fixes.verify import keep_verified

            got = keep_verified(self, d.fixes, d, result.path, result.text_of, result.settings or self.settings,
                                result)
            result.verified[id(d)] = got
        return got

    def checked(self, result: LintResult) -> list[Diagnostic]:
        """``result``'s diagnostics, each with only its verified fixes."""
        return [replace(d, fixes=self.verified_fixes(result, d)) if d.fixes else d for d in result.diagnostics]

    def _problem_diagnostics(self, path: str, found: Iterable[ParseProblem], version: str, settings: Settings) -> list[Diagnostic]:
        out = []
        for p in found:
            cls = BY_PROBLEM.get(p.code)
            if cls is None and p.code in JUDGED_BY_RULES:
                continue
            if cls is None:
                log.warning("parser reported an unknown problem %r", p.code)
                continue
            if not settings.enabled(cls.name, cls.code):
                continue
            sev = cls.severity
            if p.severity and p.severity != "error" and cls.severity == Severity.ERROR:
                sev = Severity.parse(p.severity)
            out.append(
                Diagnostic(
                    path, p.span, settings.severity_for(cls.name, cls.code, sev), cls.code, cls.name,
                    cls.category, p.message, vllm_version=version,
                    flag=p.data.get("flag"), data={k: v for k, v in p.data.items() if k != "flag"},
                )
            )
        return out

    # -- one launch ----------------------------------------------------------

    def _launch_key(self, source: SourceText, launch: Launch) -> tuple:
        """What a launch's findings depend on in the document, relative to
        where it starts (the engine adds release, config file and settings)."""
        base = launch.span.start
        return (
            launch.form, launch.entry, source.text[launch.span.start : launch.span.end],
            tuple((w.text, w.span.start - base, w.span.end - base, w.exact) for w in launch.args),
            self._env_keys.of(launch.env, launch.span), launch.image,
            tuple((p.code, p.message, p.span.start - base, p.span.end - base) for p in launch.problems),
        )

    def _load_config(self, path: str, ref: Word | None, release: ReleaseChoice, sources: dict[str, SourceText]):
        """The words of the --config file a launch names with ``ref`` (and a digest for caching)."""
        if ref is None or not ref.exact:
            return None, None, "", None
        target = os.path.expanduser(ref.text)
        if not os.path.isabs(target):
            target = os.path.join(os.path.dirname(os.path.abspath(path)), target)
        target = os.path.normpath(target)
        if not target.endswith((".yaml", ".yml")):
            return ref, None, "not-yaml", None
        text = self.read_file(target)
        if text is None:
            return ref, None, "missing", None
        import hashlib  # only for a launch naming a --config file: ~11M instructions of a cold check

        digest = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()
        from .parse.vllm_config import parse_vllm_config

        parsed = parse_vllm_config(target, text)
        sources[target] = SourceText(text)
        cfg = parsed.launches[0] if parsed.launches else None
        if cfg is not None:
            for w in cfg.args:
                w.path = target
        return ref, cfg, digest, target

    def _lint_launch(self, path, source, parsed, launch, old, settings, sources, by_key=None,
                     edit: "_Edit | None" = None, refs: dict | None = None,
                     twins: dict | None = None, index: int = 0, stable: "_Stable | None" = None,
                     sign: bool = False) -> LaunchResult:
        # The re-parse knows this launch from the last parse: the same object
        # (the edit is below it) or the same words moved by an edit above it.
        prev = by_key.of_launch(launch, index, launch.moved_from) if by_key else None
        release = None
        if prev is not None and stable is not None and launch.entry is not Entry.CONFIG_FILE:
            release = stable.release(prev.release)
            if (release is prev.release and refs is not None and id(launch) not in refs
                    and prev.context == (release.version, release.reason, "", settings)):
                # The common case of a keystroke elsewhere: no config file to
                # read again, the same release.
                carried = self._carried(prev, prev.key, path, launch, release, edit)
                if carried is not None:
                    return carried
        if release is None:
            inherited = None
            if launch.entry is Entry.CONFIG_FILE:
                inherited = self.config_releases.get(os.path.normpath(os.path.abspath(path)))
            release = choose(parsed, launch, setting=settings.vllm_version, inherited=inherited,
                             use_installed=settings.use_installed_vllm, line_of=source.line_of)
        ref = refs.get(id(launch)) if refs is not None else next(iter(config_refs(launch)), None)
        ref, cfg_launch, config_state, config_path = self._load_config(path, ref, release, sources)
        if config_path:
            # The --config file runs under this launch's release: remember it
            # for when that file is linted on its own.
            self.config_releases[config_path] = release
        base = launch.span.start
        context = (release.version, release.reason, config_state, settings)
        read = self._reader(launch, release, cfg_launch, config_state, config_path)

        if prev is not None and prev.context == context:
            # A launch the re-parse carried over keeps its findings if the
            # release, the config file and the settings are the same too; no
            # need to compare words.
            carried = self._carried(prev, prev.key, path, launch, release, edit, read)
            if carried is not None:
                return carried
        key = self._launch_key(source, launch) + context
        twin = twins.get(key) if twins is not None else None
        if twin is not None:
            same = _within(twin.diagnostics, path, twin.launch.span, launch.span)
            if same is not None:
                return LaunchResult(launch, release, None, same, twin.by_rule, key, base, read)
        if by_key:
            old = by_key.get(key) or old
        if old is not None and old.key == key:
            carried = self._carried(old, key, path, launch, release, edit, read)
            if carried is not None:
                return carried

        self.launch_evaluations += 1
        inv = read()
        diagnostics = self._problem_diagnostics(path, launch.problems, release.version, settings)
        from .fixes.parse_level import add_fixes

        add_fixes(self, diagnostics, launch, path, lambda p: sources[p].text if p in sources else None, settings)
        if cfg_launch is not None and config_path:
            # Problems inside the config file (a dropped `false`) are reported
            # when that file is linted; here they would be reported twice.
            pass

        ctx = Context(inv, path=path, base_dir=os.path.dirname(os.path.abspath(path)),
                      target=settings.target, resolve_model=self._models,
                      text_of=lambda p: sources[p].text if p in sources else None)
        by_rule: dict[str, tuple[tuple, list[Diagnostic], Span]] = {}
        old_rules = old.by_rule if old is not None else {}
        inputs = None
        for rule in self._rules_for(release.version, settings):
            diags = None
            if sign:
                if inputs is None:
                    inputs = _Inputs(inv, base)
                sig = _signature(rule, inputs, release, settings)
                prev = old_rules.get(rule.name)
                # A finding's own place is a word the rule read, but a fix
                # may also point where the launch ends or between words it
                # did not read (insert after the last flag): one typed
                # character moves those, so a rule with fixes runs again.
                if prev is not None and prev[0] == sig and not any(d.fixes for d in prev[1]):
                    diags = _within(prev[1], path, prev[2], launch.span)
            if diags is None:
                self.rule_evaluations += 1
                diags = self._run_rule(rule, ctx, path, release, settings)
            if sign:
                by_rule[rule.name] = (sig, diags, launch.span)
            diagnostics.extend(diags)
        result = LaunchResult(launch, release, inv, diagnostics, by_rule, key, base)
        if twins is not None:
            twins.setdefault(key, result)
        return result

    def _carried(self, prev: LaunchResult, key: tuple, path: str, launch: Launch, release: ReleaseChoice,
                 edit: "_Edit | None", read=None) -> LaunchResult | None:
        """``prev``'s findings for ``launch`` (the same words, release, config
        file and settings: ``key``), at the launch's place now; None if one
        of them points at text the edit changed."""
        reused = _relocated(prev, path, launch, edit)
        if reused is None:
            return None
        base = launch.span.start
        if reused is prev.diagnostics and base == prev.base:
            if prev.launch is launch and prev.release is release:
                return prev  # untouched: nothing to copy
            if launch.moved_from is not prev.launch:
                return LaunchResult(launch, release, prev._invocation, reused, prev.by_rule, key, base, prev._reread)
            # Else the re-parse moved it, or the variables it reads from
            # below an edit (a launch in a function's body): read it again.
        # A launch that moved is read again (for a hover, say) only when
        # asked: its old reading has the old places.  (A partial, not
        # ``_reader``: every launch below an edit gets one per keystroke.)
        return LaunchResult(launch, release, None, reused, prev.by_rule, key, base,
                            read or partial(self._read_later, launch, release))

    def _reader(self, launch: Launch, release: ReleaseChoice, cfg_launch=None, config_state: str = "",
                config_path=None) -> "Callable[[], argv.Invocation]":
        """Reads ``launch`` with ``release``'s parser when called (a launch
        that only moved is read again only if someone asks)."""
        kn = knowledge.load(release.version)
        return lambda: self._read(launch, kn, cfg_launch, config_state, config_path)

    def _read_later(self, launch: Launch, release: ReleaseChoice) -> "argv.Invocation":
        return self._reader(launch, release)()

    def _rules_for(self, version: str, settings: Settings) -> list[Rule]:
        """The rules that run on a launch of ``version`` under ``settings``."""
        key = (version, settings)
        got = self._rule_lists.get(key)
        if got is None:
            got = self._rule_lists[key] = [
                r for r in invocation_rules() if r.applies_to(version) and settings.enabled(r.name, r.code)]
        return got

    @staticmethod
    def _read(launch: Launch, kn, cfg_launch, config_state: str, config_path) -> "argv.Invocation":
        inv = argv.interpret(
            _without_repeated_serve(launch), kn,
            config_words=cfg_launch.args if cfg_launch is not None else None,
            config_launch=cfg_launch,
        )
        inv.config_state = config_state if config_state in ("missing", "not-yaml") else ""
        inv.config_file = config_path
        return inv

    def _run_rule(self, rule: Rule, ctx: Context, path: str, release: ReleaseChoice, settings: Settings) -> list[Diagnostic]:
        try:
            # Turning findings into diagnostics (records, fixes) is the
            # rule's work too: its failure is the rule's, not the file's.
            return [self._to_diagnostic(rule, f, path, release, settings, ctx) for f in rule.check(ctx)]
        except Exception as exc:  # one broken rule must not hide the others
            _log_failure(exc, "rule %s failed on %s", rule.name, path)
            return [
                Diagnostic(
                    path, ctx.invocation.launch.entry_span, Severity.WARNING, INTERNAL_ERROR_CODE,
                    InternalError.name, "config",
                    f"servelint rule {rule.name} ({rule.code}) failed on this launch: "
                    f"{type(exc).__name__}: {exc}; the other rules still ran",
                    vllm_version=release.version,
                )
            ]

    def _to_diagnostic(self, rule: Rule, f: Finding, path: str, release: ReleaseChoice, settings: Settings,
                       ctx: Context) -> Diagnostic:
        severity = settings.severity_for(rule.name, rule.code, f.severity or rule.severity)
        record_id = None
        related = list(f.related)
        record_fixes = []
        if f.vllm_message:
            rec = self.records.match(f.vllm_message)
            if rec is not None:
                record_id = rec.id
                record_fixes = _record_fixes(rec, ctx, path, release.version)
        data = dict(f.data)
        data.setdefault("release_reason", release.reason)
        if f.vllm_message:
            data.setdefault("vllm_message", f.vllm_message)
        diag = Diagnostic(
            f.path or path, f.span, severity, rule.code, rule.name, rule.category, f.message,
            vllm_version=release.version, flag=f.flag, record=record_id, related=related,
            fixes=list(f.fixes), tags=f.tags, data=data,
        )
        if record_fixes:
            diag.fixes = _dedupe_fixes(record_fixes + diag.fixes)
        # The fixes are candidates until ``verified_fixes`` re-lints them:
        # records' exampleFix were written for other launches, and a rule's
        # fix can trip another rule.
        return diag

    # -- suppressions --------------------------------------------------------

    def _apply_suppressions(self, path, source, parsed, diagnostics, settings) -> list[Diagnostic]:
        from .suppress import apply

        kept, unused = apply(path, source, parsed, diagnostics)
        if unused and settings.enabled(UnusedSuppression.name, UnusedSuppression.code):
            severity = settings.severity_for(UnusedSuppression.name, UnusedSuppression.code, UnusedSuppression.severity)
            kept.extend(
                Diagnostic(path, s.span, severity, UnusedSuppression.code, UnusedSuppression.name,
                           UnusedSuppression.category, s.unused_message, tags=("unnecessary",))
                for s in unused
            )
        return kept


def _without_repeated_serve(launch: Launch) -> Launch:
    """The launch minus a ``serve`` repeated after an image that already runs it.

    The parser reports the repetition (serve-repeated); reading ``serve`` as
    the model would add a second, misleading finding on the real model.
    """
    spans = [p.span for p in launch.problems if p.code == "serve-repeated"]
    if not spans:
        return launch
    kept = [w for w in launch.args if not any(s.start <= w.span.start < s.end for s in spans)]
    return replace(launch, args=kept)


def _record_fixes(rec, ctx: Context, path: str, version: str) -> list:
    """Fixes drawn from the record's exampleFix, applied to this launch."""
    example = rec.record.exampleFix
    if not example or ctx.text_of(path) is None:
        return []
    from .fixes.apply_diff import fix_for
    from .fixes.example_fix import alternatives

    out = []
    for alt in alternatives(rec.id, example, version):
        try:
            fx = fix_for(ctx.invocation, ctx.text_of, path, alt, rec.id)
        except Exception as exc:  # a record is data from outside: the finding stays, without this fix
            _log_failure(exc, "record %s: its exampleFix could not be applied on %s", rec.id, path)
            continue
        if fx is not None:
            out.append(fx)
    return out


# Failures already logged, by (exception type, where it was raised): a rule
# that fails on every launch of a 10,000-launch file, or on every keystroke,
# is one traceback in the log, not thousands.
_LOGGED: set[tuple] = set()


def _log_failure(exc: BaseException, message: str, *args) -> None:
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    where = (tb.tb_frame.f_code.co_filename, tb.tb_lineno) if tb is not None else None
    key = (message, args[:1], type(exc).__name__, where)
    if key in _LOGGED:
        log.debug(message + " (again): %s", *args, exc)
        return
    _LOGGED.add(key)
    log.error(message, *args, exc_info=exc)


def _dedupe_fixes(fixes: list) -> list:
    """One fix per distinct edit set; the first (the record's) keeps its title."""
    seen = set()
    out = []
    preferred_taken = False
    for fx in fixes:
        key = tuple((e.path, e.span, e.new_text) for e in fx.edits)
        if key in seen:
            continue
        seen.add(key)
        if fx.preferred:
            if preferred_taken:
                fx = replace(fx, preferred=False)
            preferred_taken = True
        out.append(fx)
    return out


class _EnvKeys:
    """The environment part of launch keys.

    A variable set outside the launch counts by value, not by place
    (findings pointing at it are moved with the document: _relocated); one
    set inside it (a ``VAR=x`` prefix) by its place in the launch.  A script
    exporting thousands of variables shares them between its launches
    (``model.Env``: a few own entries over a shared base): each shared base
    is described once per lint, not once per launch."""

    # Shared environments remembered across lints (a keystroke keeps most of
    # them); past this many, the next lint starts afresh.
    LIMIT = 4096

    def __init__(self) -> None:
        # id(env) → (env, first start, last end of its variables, its part);
        # holding env keeps its id from being reused by another object.
        self._shared: dict[int, tuple] = {}

    def trim(self) -> None:
        if len(self._shared) > self.LIMIT:
            self._shared.clear()

    def of(self, env: Mapping, span: Span) -> tuple:
        if isinstance(env, Env) and env.frozen:
            return self._of_shared(env, span)
        return self._describe(env, span)

    def _describe(self, env: Mapping, span: Span) -> tuple:
        if isinstance(env, Env):
            own, hidden, shared = env.layers()
            if shared is not None:
                return ("over", _env_entries(own, span), tuple(sorted(hidden)), self._of_shared(shared, span))
        return _env_entries(env, span)

    def _of_shared(self, env: Mapping, span: Span) -> tuple:
        """An environment several launches hold (never changed again)."""
        got = self._shared.get(id(env))
        if got is None or got[0] is not env:
            starts = [var.span.start for var in env.values() if var.span is not None]
            # Described as if every variable were outside the launch (what a
            # base set before the launch holds); checked for each launch.
            got = self._shared[id(env)] = (env, min(starts, default=0), max(starts, default=-1) + 1,
                                           self._describe(env, Span(0, 0)))
        _, lo, hi, part = got
        if hi <= span.start or lo >= span.end or span.start == span.end:
            return part
        return self._describe(env, span)  # a variable of it inside this launch


def _env_entries(env: Mapping, span: Span) -> tuple:
    base = span.start
    return tuple(sorted(
        (
            name,
            var.value,
            var.exact,
            None if var.span is None else (
                (var.span.start - base, var.span.end - base)
                if span.start <= var.span.start < span.end
                else "outside"
            ),
        )
        for name, var in env.items()
    ))


class _LazyIndex:
    """The last lint's launch results, found by key or by launch object; each
    index is built on first use (a keystroke usually needs neither).

    ``shift``: how many launches the new parse has more than the last one.
    A re-parse keeps the launches above an edit at their index and moves
    those below it by ``shift``, so a launch is looked for there first."""

    def __init__(self, results: list[LaunchResult], shift: int = 0) -> None:
        self.results = results
        self.shift = shift
        self._by_key: dict | None = None
        self._by_launch: dict | None = None

    def __bool__(self) -> bool:
        return bool(self.results)

    def get(self, key: tuple) -> LaunchResult | None:
        """The last lint's result with this key (the same launch text, words,
        environment and context), if any."""
        if self._by_key is None:
            # By the launch's text (key[2], see Engine._launch_key): a string
            # keeps its hash, a tuple of tuples hashes again on every lookup,
            # and this index is built on every keystroke.
            self._by_key = {}
            for r in self.results:
                if len(r.key) > 2:
                    self._by_key.setdefault(r.key[2], []).append(r)
        for r in self._by_key.get(key[2], ()):
            if r.key == key:
                return r
        return None

    def of_launch(self, launch: Launch, index: int | None = None, moved_from: Launch | None = None
                  ) -> LaunchResult | None:
        """The result of ``launch`` (or of ``moved_from``, the launch it was
        before an edit moved it), now at ``index``."""
        wanted = (launch,) if moved_from is None else (launch, moved_from)
        if index is not None:
            results = self.results
            for j in (index, index - self.shift):
                if 0 <= j < len(results):
                    had = results[j].launch
                    if had is launch or (moved_from is not None and had is moved_from):
                        return results[j]
        if index is not None and moved_from is None:
            # A launch the re-parse made anew (the edited one, or every one
            # after a full parse) is in no earlier result: no index for it.
            return None
        if self._by_launch is None:
            self._by_launch = {id(r.launch): r for r in self.results}
        for one in wanted:
            got = self._by_launch.get(id(one))
            if got is not None and got.launch is one:
                return got
        return None


@dataclass(frozen=True, slots=True)
class _Edit:
    """What changed since the last lint: ``old[start:old_end]`` became
    ``new[start:new_end]``."""

    start: int
    old_end: int
    new_end: int


class _Stable:
    """Release choices that an edit leaving the document's release hints as
    they were cannot change (``release`` answers for one launch)."""

    __slots__ = ("edit", "lines_kept")

    def __init__(self, edit: _Edit, lines_kept: bool) -> None:
        self.edit, self.lines_kept = edit, lines_kept

    def release(self, before: ReleaseChoice) -> ReleaseChoice | None:
        """``before`` if it still holds for its launch, else None (choose again).

        With the same hints in the same order, the same one decides; only
        the line a reason names can have changed, when the edit added or
        removed lines above that hint."""
        if before.span is None or self.lines_kept or before.span.end <= self.edit.start:
            return before
        return None


def _same_hints(old: list, new: list, edit: _Edit) -> bool:
    """Whether ``new`` is ``old`` with every hint where the edit moved it
    (none typed, deleted or changed)."""
    if old is new:
        return True
    if len(old) != len(new):
        return False
    # Hints wholly before the edit stay put; those after it move by delta;
    # none may touch it.  Compared list by list (a manifest has a hint per
    # container, and this runs on every keystroke).  Hints are in text
    # order, by start and by end (release.choose bisects them the same way).
    k = bisect_left(old, edit.start, key=_hint_end)
    while k < len(old) and old[k].span.end == edit.start and old[k].span.start < edit.start:
        k += 1
    if k < len(old) and old[k].span.start < edit.old_end:
        return False
    if old[:k] != new[:k]:
        return False
    delta = edit.new_end - edit.old_end
    a, b = old[k:], new[k:]
    return ([(h.kind, h.version, h.text, h.span.start + delta, h.span.end + delta) for h in a]
            == [(h.kind, h.version, h.text, h.span.start, h.span.end) for h in b])


def _hint_end(h) -> int:
    return h.span.end


def _relocated(prev: LaunchResult, path: str, launch: Launch, edit: _Edit | None) -> list[Diagnostic] | None:
    """``prev``'s diagnostics for the same launch, now at ``launch``'s place;
    None if one of them points at text the edit changed.

    A place inside the launch moves with it; any other place in the document
    (an ``export`` above it, a release comment) moves as the edit moved the
    text around it.  ``prev.diagnostics`` itself when nothing moves."""
    if not prev.diagnostics:
        return prev.diagnostics  # most launches: nothing to move
    delta = launch.span.start - prev.base
    old_span = prev.launch.span
    moves = edit is not None and edit.new_end != edit.old_end

    def mv(span: Span) -> Span | None:
        if old_span.start <= span.start and span.end <= old_span.end:
            return span.shifted(delta) if delta else span
        if edit is None:
            return span
        if span.end <= edit.start and not (span.end == edit.start == span.start):
            return span
        if span.start >= edit.old_end:
            d = edit.new_end - edit.old_end
            return span.shifted(d) if d else span
        return None

    if not delta and not moves:
        # Nothing moved; a place inside the edited text is still stale.
        if edit is None or all(_places_ok(d, path, mv) for d in prev.diagnostics):
            return prev.diagnostics
        return None
    out = []
    changed = False
    for d in prev.diagnostics:
        moved = _moved(d, path, mv)
        if moved is None:
            return None
        changed = changed or moved is not d
        out.append(moved)
    return out if changed else prev.diagnostics


def _within(diags: list[Diagnostic], path: str, made: Span, now: Span) -> list[Diagnostic] | None:
    """A rule's diagnostics made for a launch at ``made``, for the launch now
    at ``now`` (same inputs); None if one points outside the launch (at an
    ``export``, say), whose place the launch's inputs do not tell."""
    delta = now.start - made.start

    def mv(span: Span) -> Span | None:
        if made.start <= span.start and span.end <= made.end:
            return span.shifted(delta) if delta else span
        return None

    if not delta:
        return diags if all(_places_ok(d, path, mv) for d in diags) else None
    out = []
    for d in diags:
        moved = _moved(d, path, mv)
        if moved is None:
            return None
        out.append(moved)
    return out


def _places_ok(d: Diagnostic, path: str, mv) -> bool:
    return all(mv(s) is not None for p, s in _places(d) if p == path)


def _places(d: Diagnostic):
    yield d.path, d.span
    for r in d.related:
        yield r.path, r.span
    for fx in d.fixes:
        for e in fx.edits:
            yield e.path, e.span


def _moved(d: Diagnostic, path: str, mv) -> Diagnostic | None:
    """``d`` with each of its places in ``path`` mapped by ``mv`` (None if one cannot be)."""
    def m(span: Span, p: str) -> Span:
        if p != path:
            return span
        got = mv(span)
        if got is None:
            raise _Stale
        return got

    try:
        if all(m(s, p) is s for p, s in _places(d)):
            return d  # above the edit: nothing to copy
        return replace(
            d,
            span=m(d.span, d.path),
            related=[replace(r, span=m(r.span, r.path)) for r in d.related],
            fixes=[replace(fx, edits=[replace(e, span=m(e.span, e.path)) for e in fx.edits]) for fx in d.fixes],
        )
    except _Stale:
        return None


class _Stale(Exception):
    pass


class _Inputs:
    """What a launch gives its rules, each flag described once relative to
    the launch's start: a rule's signature picks the flags it reads (a
    launch with thousands of flags is not scanned once per rule)."""

    def __init__(self, inv: "argv.Invocation", base: int) -> None:
        self.inv, self.base = inv, base
        self.all: list[tuple] = []
        self.by_dest: dict[str, list[tuple]] = {}
        self.unknown: list[tuple] = []  # flags no option of the release knows
        for f in inv.flags:
            extra = f.unexpected_value
            row = (
                f.string, f.written, f.spelling, f.source, f.dotted_key,
                f.name_span.start - base, f.name_span.end - base,
                tuple((w.text, w.span.start - base, w.span.end - base, w.exact) for w in f.values),
                # What argparse rejects before any type check is read too
                # (`--enforce-eager=tru`: its text is in the finding).
                f.explicit, f.missing_value,
                None if extra is None else (extra.text, extra.span.start - base, extra.span.end - base, extra.exact),
            )
            self.all.append((len(self.all), row))
            self.by_dest.setdefault(f.dest, []).append((len(self.all) - 1, row))
            if f.option is None:
                self.unknown.append((len(self.all) - 1, row))
        launch = inv.launch
        # Words the launch could not resolve ("$@") silence rules that would
        # otherwise report a missing flag, and the entry (`vllm serve`) is
        # where launch-wide findings are anchored: every rule depends on them.
        self.common = (tuple(w.text for w in launch.opaque),
                       launch.entry_span.start - base, launch.entry_span.end - base)


def _signature(rule: Rule, inputs: _Inputs, release: ReleaseChoice, settings: Settings) -> tuple:
    """The inputs a rule declared, relative to the launch's start."""
    reads = rule.reads
    inv, base = inputs.inv, inputs.base
    if "*" in reads:
        rows = inputs.all
    else:
        picked = [r for dest in reads for r in inputs.by_dest.get(dest, ())]
        if "?" in reads:
            picked.extend(inputs.unknown)
        rows = sorted(set(picked), key=lambda r: r[0])  # in the order written, each once
    parts: list = [release.version, settings.target, inputs.common]
    parts.extend(row for _, row in rows)
    if "model" in reads or "*" in reads:
        m = inv.model
        parts.append(("model", inv.model_source, None if m is None else (m.text, m.span.start - base, m.exact)))
    for name in sorted(r for r in reads if r.isupper()):
        var = inv.env.get(name)
        parts.append((name, None if var is None else (var.value, var.exact)))
    if "*" in reads:
        parts.append(tuple((w.text, w.span.start - base, w.span.end - base) for w in inv.extra))
    if "problems" in reads:
        # What a parser saw that the rule judges (a dropped `false` has no word).
        launch = inv.launch
        parts.append(tuple((p.code, p.message, p.span.start - base, p.span.end - base, tuple(sorted(p.data.items())))
                           for p in launch.problems))
    if "config" in reads:
        # The same `--config FILE` words read differently once the file
        # appears, disappears or changes (an editor opens it unsaved).
        cfg = inv.config_launch
        parts.append(("config", inv.config_state, inv.config_file,
                      None if cfg is None else tuple(w.text for w in cfg.args)))
    return tuple(parts)


class _LaunchEnv(Mapping):
    """The environment a launch's model is resolved in: its own variables
    over the process's, neither copied (a script can export thousands), and
    every name looked up recorded, so that a resolution can be reused for a
    launch whose environment agrees on those names."""

    __slots__ = ("_vars", "reads")

    def __init__(self, variables: Mapping) -> None:
        self._vars = variables
        self.reads: dict[str, str | None] | None = {}  # None: read whole, not reusable

    def __getitem__(self, name: str) -> str:
        var = self._vars.get(name)
        value = var.value if var is not None and var.value is not None else os.environ.get(name)
        if self.reads is not None:
            self.reads[name] = value
        if value is None:
            raise KeyError(name)
        return value

    def __iter__(self):
        self.reads = None
        names = {name for name, var in self._vars.items() if var.value is not None}
        return iter(names | set(os.environ))

    def __len__(self) -> int:
        return sum(1 for _ in self)


class _Models:
    """Model resolutions (local files, the Hugging Face cache, the table),
    each kept with the environment values it read: the launches of a
    manifest or a repository name the same few models."""

    def __init__(self) -> None:
        self._found: dict[tuple, list[tuple[tuple, object]]] = {}

    def clear(self) -> None:
        self._found.clear()

    def __call__(self, inv: "argv.Invocation", base_dir: str | None):
        from .knowledge.models import resolve_model

        if inv.model is not None and not inv.model.exact:
            return None
        flag = inv.last("hf_overrides")
        written = flag.values[0].text if flag is not None and flag.values else None
        key = (inv.model_name, base_dir, written)
        seen = self._found.setdefault(key, [])
        for reads, found in seen:
            if all(_env_value(inv, name) == value for name, value in reads):
                return found
        overrides = None
        if written is not None:
            import json

            try:
                overrides = json.loads(written)
            except (ValueError, RecursionError):
                overrides = None
            if not isinstance(overrides, dict):
                overrides = None
        env = _LaunchEnv(inv.env)
        try:
            found = resolve_model(inv.model_name, base_dir=base_dir, env=env, hf_overrides=overrides)
        except Exception:  # resolution is best effort; rules then stay silent
            log.exception("model resolution failed for %r", inv.model_name)
            return None
        if env.reads is not None and len(seen) < 8:
            seen.append((tuple(env.reads.items()), found))
        return found


def _env_value(inv: "argv.Invocation", name: str) -> str | None:
    var = inv.env.get(name)
    return var.value if var is not None and var.value is not None else os.environ.get(name)


def _resolve_model(inv: "argv.Invocation", base_dir: str | None):
    """One launch's model resolution, remembering nothing (for tests and tools)."""
    return _Models()(inv, base_dir)
