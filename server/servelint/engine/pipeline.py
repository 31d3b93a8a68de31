"""The pipeline: a document's text → launches → invocations → findings → diagnostics.

``Engine.lint`` parses the document, chooses each launch's release, reads
the launch with that release's parser semantics (``servelint.argv``) and
its ``--config`` file (``io``), runs the rules that apply, and turns their
findings into diagnostics (joined to error records, with candidate fixes),
filtered by suppressions and settings.

What an edit left alone is not done again: a launch whose inputs are
unchanged keeps its diagnostics, moved if it moved (``reuse``), and in a
launch that changed, a rule runs again only when one of the inputs it
declares changed (``signature``); ``rule_evaluations`` counts the runs.
"""

from __future__ import annotations

import os
import weakref
from collections.abc import MutableMapping
from typing import Callable, Iterable

from ..structs import dataclass, field, replace
from .. import LazyLogger, argv, knowledge
from ..diagnostics import Diagnostic, Severity
from ..model import Entry, Launch, ParsedDocument, ParseProblem, Word
from ..parse import parse_document
from ..release import ReleaseChoice, choose
from ..rules import Context, Finding, Rule, invocation_rules, present_in, problem_rules, rules_for
from ..rules.meta import FileTooLarge, InternalError, TooManyLaunches, UnusedSuppression
from ..rules.meta.release_not_known import ReleaseNotKnown
from ..rules.meta.release_not_known import message as pin_message
from ..settings import Settings
from ..text import KnownEdit, SourceText, Span, edit_range
from . import io
from .io import MAX_DOCUMENT_CHARS
from .results import ConfigUse, InLaunchOrder, LaunchResult, LintResult, order_of
from .reuse import Change, EnvKeys, LazyIndex, Stable, Untouched, carried, has_build, launch_key, same_hints, within
from .signature import CHECK_READS, Inputs, check_reads, signature

# Run the rules a launch's flags left out too, and report one that finds
# something (its ``Rule.requires`` is wrong): the test suite sets it.
CHECK_REQUIRES = os.environ.get("SERVELINT_CHECK_REQUIRES") == "1"

log = LazyLogger(__name__)

INTERNAL_ERROR_CODE = InternalError.code


def _release_notes(path: str, results: list[LaunchResult], settings: Settings) -> list[Diagnostic]:
    """SL013 once per pin of a release outside the tables (at the pin in
    the document, or at the first launch that a project file's pin reads)."""
    if not settings.enabled(ReleaseNotKnown.name, ReleaseNotKnown.code):
        return []
    out, seen = [], set()
    for res in results:
        rc = res.release
        if not rc.outside or (rc.span is None and rc.pin_path is None):
            continue
        key = (rc.span, rc.pin_path, rc.asked)
        if key in seen:
            continue
        seen.add(key)
        out.append(Diagnostic(
            path, rc.span if rc.span is not None else res.launch.entry_span,
            settings.severity_for(ReleaseNotKnown.name, ReleaseNotKnown.code, ReleaseNotKnown.severity),
            ReleaseNotKnown.code, ReleaseNotKnown.name, ReleaseNotKnown.category,
            pin_message(rc.asked or "?", rc.note, rc.pin_path), vllm_version=rc.version,
        ))
    return out


def _sorted_once(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """The diagnostics in document order, each place's finding once: two
    launches can share a place (both expand `$COMMON`, both sit inside one
    unclosed `$(`), and the editor shows each finding there once.  (Each
    key is made once: this runs over every diagnostic on every keystroke.)"""
    keyed = sorted(zip(map(Diagnostic.sort_key, diagnostics), range(len(diagnostics))))
    out, last = [], None
    for key, i in keyed:
        if key != last:
            out.append(diagnostics[i])
            last = key
    return out


def _in_turn(results: list[LaunchResult], failed: list[tuple[int, Diagnostic]]) -> list[Diagnostic]:
    """The launches' findings and their internal errors, launch by launch
    (``_sorted_once`` keeps the first of two findings at one place)."""
    out: list[Diagnostic] = []
    k = 0
    for i, res in enumerate(results):
        while k < len(failed) and failed[k][0] == i:
            out.append(failed[k][1])
            k += 1
        out.extend(res.diagnostics)
    out.extend(d for _, d in failed[k:])
    return out


def _in_order(results: list[LaunchResult], path: str) -> bool:
    """Whether the launches' findings, one launch after the other, are
    already what ``_sorted_once`` makes of them: each launch's in order,
    and each launch's first after the last of the one before it."""
    last = -1
    for res in results:
        order = res.order
        if type(order) is not tuple:  # (a tuple: findings, all in order, measured before)
            if not res.count:
                continue
            order = order_of(res, path)
            if order is False:
                return False
        base = res.base
        if base + order[0] <= last:
            return False
        last = base + order[1]
    return True


def too_large(path: str, size: str) -> Diagnostic:
    """The information that a file is not linted; ``size`` says how big it is."""
    return Diagnostic(
        path, Span(0, 0), FileTooLarge.severity, FileTooLarge.code, FileTooLarge.name, FileTooLarge.category,
        f"servelint skips files over {MAX_DOCUMENT_CHARS:,} characters ({size} here)",
    )


@dataclass(slots=True)
class _Run:
    """One lint of one document: what the checks of its launches share."""

    path: str
    source: SourceText
    parsed: ParsedDocument
    settings: Settings
    # What changed since the last lint (None: no last lint).
    edit: Change | None
    # The last lint's launches: by index (``before``), by key or launch object (``by_key``).
    before: list[LaunchResult]
    by_key: LazyIndex
    # Release choices the edit cannot have changed (None: choose each again).
    stable: Stable | None
    # The --config word of each launch (by id), as the parser found it: a
    # moved launch's words are not read just to look for one.
    refs: dict[int, Word]
    # Whether to keep per-rule signatures (what each rule read): made from
    # the first edit on, since most launches of an open file are never
    # edited, and describing them all costs a third of a big script's memory.
    sign: bool
    # The document and the --config files read, by path, and their texts
    # for rules and fixes (a closure over ``sources`` alone: what a rule
    # keeps of it must not keep this lint, and the last one, alive).
    sources: dict[str, SourceText]
    text_of: Callable[[str], str | None]
    # This lint's results by key: a file that repeats a launch word for
    # word (a generated matrix, a loop unrolled) checks it once.
    twins: dict[tuple, LaunchResult] = field(default_factory=dict)
    # By launch index: the launch rendered with its Helm chart's values (or
    # its values file's templates), and the state of the file read for it.
    chart: dict[int, tuple[Launch, str]] = field(default_factory=dict)
    # The release the project files beside the document pin (read on the
    # first launch that needs it; False: not read yet).
    project: object = False

    def old_at(self, index: int) -> LaunchResult | None:
        """The last lint's launch that had this launch's place."""
        return self.before[index] if index < len(self.before) else None


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
        self.read_file = read_file or io.read_text_file
        self._records = records
        self._previous: dict[str, LintResult] = {}
        # --config files named by launches linted so far → that launch's release.
        self.config_releases: dict[str, ConfigUse] = {}
        self.rule_evaluations = 0
        self.launch_evaluations = 0
        self._rule_lists: dict[tuple, list[Rule]] = {}
        # Kept for a whole `check` run; an editor's engine forgets them after
        # each lint, so a model downloaded meanwhile is seen.
        self._models = io.Models()
        self._env_keys = EnvKeys()
        self._fix_verifier = None  # (read_file, verifier): made by the first verified_fixes

    # -- records -------------------------------------------------------------

    @property
    def records(self):
        if self._records is None:
            self._records = io.load_records(self.settings.records)
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
        edit = Change(*edit_range(previous.source.text, text)) if previous is not None else None
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

        diagnostics: list[Diagnostic] = []
        doc_release = choose(parsed, None, setting=settings.vllm_version,
                             use_installed=settings.use_installed_vllm, line_of=source.line_of)
        for p in parsed.problems:
            diagnostics.extend(self._problem_diagnostics(path, [p], doc_release.version, settings))
        launches = self._within_limit(path, parsed, settings, doc_release.version, diagnostics)
        sources = {path: source}
        # A Helm chart's template is rendered with its values file, and a
        # values file joined to the templates that use it (``io``).
        chart: dict[int, tuple[Launch, str]] = {}
        try:
            chart = io.template_values(path, source, launches, self.read_file, sources) if launches else {}
            if not chart:
                launches, states = io.values_launches(path, text, launches, self.read_file, sources)
                chart = {i: (launches[i], state) for i, state in states.items()}
        except Exception as exc:  # the launches are still checked, as the file alone shows them
            _log_failure(exc, "reading the Helm chart of %s failed", path)
            chart = {}

        run = self._run(path, source, parsed, settings, previous, edit, len(launches), sources, chart)
        untouched = (Untouched(run.before, len(launches) - len(run.before), run.stable, settings, run.refs, chart,
                               path, self._read_later, lambda launch: self._choose_release(run, launch))
                     if run.stable is not None and run.before else None)
        results: list[LaunchResult] = []
        # The launches' findings are not gathered here: when they already
        # are the document's diagnostics, in order (``_in_order``), the
        # result lists them when asked, and a keystroke leaves the findings
        # of the launches it moved unshifted (``reuse.MovedResult``).
        failed: list[tuple[int, Diagnostic]] = []  # (results before it, the launch's internal error)
        for i, launch in enumerate(launches):
            if untouched is not None:
                res = untouched.kept(i, launch)
                if res is not None:
                    results.append(res)
                    continue
            try:
                res = self._lint_launch(run, i, launch)
            except Exception as exc:  # one launch servelint cannot read must not hide the others
                _log_failure(exc, "reading a launch failed on %s", path)
                failed.append((len(results), Diagnostic(
                    path, launch.entry_span, Severity.WARNING, INTERNAL_ERROR_CODE, InternalError.name, "config",
                    f"servelint could not check this launch (internal error: {type(exc).__name__}: {exc}); "
                    "the other launches were checked; please report it",
                    vllm_version=doc_release.version,
                )))
                continue
            results.append(res)
        notes = _release_notes(path, results, settings)
        if (not diagnostics and not failed and not notes and not parsed.directives and not chart
                and _in_order(results, path)):
            result = InLaunchOrder(path, source, parsed, None, results, run.sources, settings)
        else:
            diagnostics.extend(_in_turn(results, failed))
            diagnostics.extend(notes)
            diagnostics = self._apply_suppressions(path, source, parsed, diagnostics, settings)
            if chart:
                diagnostics = _suppressed_elsewhere(path, run.sources, diagnostics)
            diagnostics = _sorted_once(diagnostics)
            result = LintResult(path, source, parsed, diagnostics, results, run.sources, settings)
        if self.incremental:
            self._previous[path] = result
        return result

    def _run(self, path: str, source: SourceText, parsed: ParsedDocument, settings: Settings,
             previous: LintResult | None, edit: Change | None, count: int,
             sources: dict[str, SourceText], chart: dict[int, tuple[Launch, str]]) -> _Run:
        """What the checks of this lint's ``count`` launches share."""
        before = previous.launches if previous else []
        # A launch whose text did not change (maybe moved) is found by its key;
        # one that changed is compared rule by rule with the launch that had
        # its place.
        by_key = LazyIndex(before, count - len(before), previous.source.text if previous else None)
        # Whether each launch the edit left alone keeps the release it had:
        # the same hints around it, and (if it was decided by a hint written
        # elsewhere) that hint still on the line the reason names.
        stable = None
        if (previous is not None and previous.settings == settings
                and same_hints(previous.parsed.release_hints, parsed.release_hints, edit)):
            lines_kept = (previous.source.text.count("\n", edit.start, edit.old_end)
                          == source.text.count("\n", edit.start, edit.new_end))
            stable = Stable(edit, lines_kept)
        refs: dict[int, Word] = {}
        for launch, word in parsed.config_refs:
            refs.setdefault(id(launch), word)
        return _Run(path, source, parsed, settings, edit, before, by_key, stable, refs,
                    sign=self.reuse_rules and previous is not None, sources=sources,
                    text_of=lambda p: sources[p].text if p in sources else None, chart=chart)

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
            from ..fixes.verify import keep_verified

            settings = result.settings or self.settings
            # A lint kept for nothing else (``check``) may stand in for the
            # verifier's lint of the unfixed text.
            reusable = not self.incremental and (result.settings or self.settings) == settings
            got = keep_verified(self._verifier(), d.fixes, d, result.path, result.text_of, settings,
                                result, reusable)
            result.verified[id(d)] = got
        return got

    def checked(self, result: LintResult) -> list[Diagnostic]:
        """``result``'s diagnostics, each with only its verified fixes."""
        return [replace(d, fixes=self.verified_fixes(result, d)) if d.fixes else d for d in result.diagnostics]

    def _verifier(self):
        """The fix verifier, re-linting with a second engine of its own
        (made again if this engine's way of reading files changed)."""
        made = self._fix_verifier
        if made is None or made[0] is not self.read_file:
            from ..fixes.verify import new_verifier

            relint = _Relint(self)
            made = self._fix_verifier = (self.read_file, new_verifier(relint.lint, relint.adopt))
        return made[1]

    def _problem_diagnostics(self, path: str, found: Iterable[ParseProblem], version: str, settings: Settings) -> list[Diagnostic]:
        out = []
        by_problem, judged = problem_rules()
        for p in found:
            cls = by_problem.get(p.code)
            if cls is None and p.code in judged:
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

    def _lint_launch(self, run: _Run, index: int, launch: Launch) -> LaunchResult:
        """The result of the ``index``-th launch: the last lint's, moved,
        when nothing it depends on changed; else a new check."""
        path, settings = run.path, run.settings
        # The re-parse knows this launch from the last parse: the same object
        # (the edit is below it) or the same words moved by an edit above it.
        prev = run.by_key.of_launch(launch, index, launch.moved_from) if run.by_key else None
        release = None
        build_state = ""
        chart_state = ""
        ref = run.refs.get(id(launch))  # the --config word, found on the launch as parsed
        if index in run.chart:
            # Rendered with the chart's values: the values file's state is
            # part of the launch (an edit of that file is seen).
            launch, chart_state = run.chart[index]
        if has_build(launch):
            # A compose service built from a Dockerfile runs what that file
            # says: read it (an edit of it is seen through its digest).
            built, build_state = io.load_build(path, launch, self.read_file, run.sources)
            if built is None:
                return LaunchResult(launch, self._choose_release(run, launch), None, [], {},
                                    ("not-vllm", build_state), launch.span.start)
            launch = built
        if (prev is not None and run.stable is not None and launch.entry is not Entry.CONFIG_FILE
                and not has_build(launch) and not chart_state):
            release = run.stable.release(prev.release)
            if (release is prev.release and ref is None
                    and prev.context == (release.version, release.reason, "", settings)):
                # The common case of a keystroke elsewhere: no config file to
                # read again, the same release.
                kept = self._carried(prev, prev.key, run, launch, release)
                if kept is not None:
                    return kept
        if release is None:
            release = self._choose_release(run, launch)
        ref, cfg_launch, config_state, config_path = io.load_config(path, ref, self.read_file,
                                                                    run.sources, written=launch.written_config)
        if config_path:
            # The --config file runs under this launch's release: remember it
            # for when that file is linted on its own.
            self.config_releases[config_path] = ConfigUse(release, launch.entry)
        context = (release.version, release.reason, config_state, settings)
        read = self._reader(launch, release, cfg_launch, config_state, config_path)

        if prev is not None and prev.context == context and not chart_state:
            # A launch the re-parse carried over keeps its findings if the
            # release, the config file and the settings are the same too; no
            # need to compare words.
            kept = self._carried(prev, prev.key, run, launch, release, read)
            if kept is not None:
                return kept
        key = (launch_key(run.source, launch, self._env_keys) + (self._launcher(run, launch), build_state, chart_state)
               + context)
        twin = run.twins.get(key)
        if twin is not None:
            same = within(twin.diagnostics, path, twin.launch.span, launch.span)
            if same is not None:
                return LaunchResult(launch, release, None, same, twin.by_rule, key, launch.span.start, read)
        old = run.old_at(index)
        if run.by_key:
            old = run.by_key.get(key) or old
        if old is not None and old.key == key:
            kept = self._carried(old, key, run, launch, release, read)
            if kept is not None:
                return kept
        result = self._check(run, launch, release, key, read, old)
        run.twins.setdefault(key, result)
        return result

    def _launcher(self, run: _Run, launch: Launch) -> Entry | None:
        """For a --config file linted on its own: the entry point of the
        launch that names it, when a lint has seen one."""
        if launch.entry is not Entry.CONFIG_FILE:
            return None
        use = self.config_releases.get(os.path.normpath(os.path.abspath(run.path)))
        return use.launcher if use is not None else None

    def _choose_release(self, run: _Run, launch: Launch) -> ReleaseChoice:
        settings = run.settings
        inherited = None
        if launch.entry is Entry.CONFIG_FILE:
            # Linted on its own, a --config file runs under the release of
            # the launch that named it.
            use = self.config_releases.get(os.path.normpath(os.path.abspath(run.path)))
            inherited = use.release if use is not None else None

        def project():
            if run.project is False:
                run.project = io.project_pin(run.path, self.read_file)
            return run.project

        return choose(run.parsed, launch, setting=settings.vllm_version, inherited=inherited,
                      use_installed=settings.use_installed_vllm, line_of=run.source.line_of, project=project)

    def _carried(self, prev: LaunchResult, key: tuple, run: _Run, launch: Launch, release: ReleaseChoice,
                 read=None) -> LaunchResult | None:
        return carried(prev, key, run.path, launch, release, run.edit, read, self._read_later)

    def _check(self, run: _Run, launch: Launch, release: ReleaseChoice, key: tuple,
               read: "Callable[[], argv.Invocation]", old: LaunchResult | None) -> LaunchResult:
        """Check a launch that changed: its parse problems, then its rules
        (each one's findings reused from ``old`` when its inputs are the same)."""
        path, settings = run.path, run.settings
        self.launch_evaluations += 1
        inv = read()
        # Only the launch's own problems: those inside its --config file (a
        # dropped `false`) are reported when that file is linted.
        diagnostics = self._problem_diagnostics(path, launch.problems, release.version, settings)
        if diagnostics:
            from ..fixes.parse_level import add_fixes

            add_fixes(diagnostics, launch, path, run.text_of)
        ctx = Context(inv, path=path, base_dir=os.path.dirname(os.path.abspath(path)),
                      target=settings.target, resolve_model=self._models, text_of=run.text_of,
                      launched_by=self._launcher(run, launch))
        # Per rule: what it read in its last run, the value of those reads,
        # its findings and the launch's span then.
        by_rule: dict[str, tuple[frozenset, tuple, list[Diagnostic], Span]] = {}
        old_rules = old.by_rule if old is not None else {}
        inputs = None
        # Another platform than CUDA changes what vLLM does with defaults
        # (a quantized checkpoint on the CPU): every rule runs there.
        chosen = self._rules_for(release.version, settings, present_in(inv) if settings.target == "cuda" else None)
        for rule in chosen:
            diags = None
            if run.sign:
                if inputs is None:
                    inputs = Inputs(inv, launch.span.start)
                before = old_rules.get(rule.name)
                # A finding's own place is a word the rule read, but a fix
                # may also point where the launch ends or between words it
                # did not read (insert after the last flag): one typed
                # character moves those, so a rule with fixes runs again.
                if before is not None and not any(d.fixes for d in before[2]):
                    reads, sig = before[0], before[1]
                    if signature(reads, inputs, release, settings) == sig:
                        diags = within(before[2], path, before[3], launch.span)
            if diags is None:
                self.rule_evaluations += 1
                ctx.begin()
                diags = self._run_rule(rule, ctx, path, release, settings)
                reads = ctx.reads()
                if CHECK_READS:
                    check_reads(rule, reads)
                if run.sign:
                    sig = signature(reads, inputs, release, settings)
            if run.sign:
                by_rule[rule.name] = (reads, sig, diags, launch.span)
            diagnostics.extend(diags)
        if CHECK_REQUIRES:
            diagnostics.extend(self._check_requires(chosen, ctx, path, release, settings))
        return LaunchResult(launch, release, inv, diagnostics, by_rule, key, launch.span.start)

    def _reader(self, launch: Launch, release: ReleaseChoice, cfg_launch=None, config_state: str = "",
                config_path=None) -> "Callable[[], argv.Invocation]":
        """Reads ``launch`` with ``release``'s parser when called (a launch
        that only moved is read again only if someone asks)."""
        kn = knowledge.load(release.version)
        return lambda: self._read(launch, kn, cfg_launch, config_state, config_path)

    def _read_later(self, launch: Launch, release: ReleaseChoice) -> "argv.Invocation":
        return self._reader(launch, release)()

    def _rules_for(self, version: str, settings: Settings, present: frozenset[str] | None) -> list[Rule]:
        """The rules that run on a launch of ``version`` under ``settings``
        that sets ``present`` (None: every rule, as if it set everything)."""
        if present is None:
            candidates = tuple(r for r in invocation_rules() if r.applies_to(version))
        else:
            candidates = rules_for(present, version)  # the index knows where each applies
        key = (settings, candidates)
        got = self._rule_lists.get(key)
        if got is None:
            if len(self._rule_lists) > 512:  # a long session sees many flag sets
                self._rule_lists.clear()
            got = self._rule_lists[key] = [r for r in candidates if settings.enabled(r.name, r.code)]
        return got

    def _check_requires(self, chosen: list[Rule], ctx: Context, path: str, release: ReleaseChoice,
                        settings: Settings) -> list[Diagnostic]:
        """With SERVELINT_CHECK_REQUIRES=1: run the rules the launch's
        ``requires`` left out too; one that reports is an internal error
        (its ``requires`` is wrong, and without the check it was silent)."""
        skipped = [r for r in self._rules_for(release.version, settings, None) if r not in chosen]
        out = []
        for rule in skipped:
            ctx.begin()
            found = self._run_rule(rule, ctx, path, release, settings)
            if found:
                out.append(Diagnostic(
                    path, ctx.invocation.launch.entry_span, Severity.WARNING, INTERNAL_ERROR_CODE,
                    InternalError.name, "config",
                    f"servelint rule {rule.name} ({rule.code}) reported on a launch that sets none of its "
                    f"requires ({', '.join(rule.requires or ())}): {found[0].message}",
                    vllm_version=release.version,
                ))
        ctx.begin()
        return out

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
        if not parsed.directives:
            return diagnostics  # no `# servelint:` comment: nothing to apply
        from ..suppress import apply

        kept, unused = apply(path, source, parsed, diagnostics)
        if unused and settings.enabled(UnusedSuppression.name, UnusedSuppression.code):
            severity = settings.severity_for(UnusedSuppression.name, UnusedSuppression.code, UnusedSuppression.severity)
            kept.extend(
                Diagnostic(path, s.span, severity, UnusedSuppression.code, UnusedSuppression.name,
                           UnusedSuppression.category, s.unused_message, tags=("unnecessary",))
                for s in unused
            )
        return kept


class _ReadThrough(MutableMapping):
    """The served engine's ``config_releases`` as the verifying engine sees
    it: read from the served engine's current dict, written to its own."""

    def __init__(self, serves) -> None:
        self._serves, self._own = serves, {}

    def _base(self) -> dict:
        engine = self._serves()
        return engine.config_releases if engine is not None else {}

    def __getitem__(self, key):
        if key in self._own:
            return self._own[key]
        return self._base()[key]

    def get(self, key, default=None):
        if key in self._own:
            return self._own[key]
        return self._base().get(key, default)

    def __setitem__(self, key, value) -> None:
        self._own[key] = value

    def __delitem__(self, key) -> None:
        del self._own[key]

    def __iter__(self):
        return iter({**self._base(), **self._own})

    def __len__(self) -> int:
        return len({**self._base(), **self._own})


class _Relint:
    """The ``lint`` the fix verifier is given: a second engine that lints
    documents as fixes would leave them (their texts in ``overlay``), made
    on first use.

    It is kept for the life of the engine it serves, so its own incremental
    cache makes a re-lint cost about what the fixed launch costs: the other
    launches of the document are reused.
    """

    def __init__(self, engine: Engine) -> None:
        self.overlay: dict[str, str] = {}
        self.read_file = engine.read_file
        # Weak: the engine served keeps this, and is freed by reference counting.
        self._serves = weakref.ref(engine)
        self._engine: Engine | None = None

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            serves = self._serves()
            # Launches the fix left alone are reused; the fixed one is
            # re-checked whole.  Per-rule signatures would cost more than
            # they save here: a fix changes the launch, and describing a
            # launch of 9,000 flags for them takes longer than running its
            # rules.
            self._engine = Engine(serves.settings, read_file=self._read, records=serves.records, reuse_rules=False)
            # A --config file is checked under the release of the launch
            # naming it: what the engine it serves learned (and a check -j
            # worker's engine learned from the phase before), not what this
            # one happened to lint.  A fixed text only reads it: the fix of
            # `python -m ...api_server --config x.yaml` must not tell the
            # next lint of x.yaml that vllm serve runs it.
            self._engine.config_releases = _ReadThrough(self._serves)
        return self._engine

    def _read(self, path: str) -> str | None:
        if path in self.overlay:
            return self.overlay[path]
        return self.read_file(path)

    def lint(self, main: str, text: str, overlay: dict[str, str], settings: Settings) -> list[Diagnostic]:
        engine = self.engine
        self.overlay = overlay
        try:
            return engine.lint(main, text, settings=settings).diagnostics
        finally:
            self.overlay = {}

    def adopt(self, result: LintResult) -> None:
        self.engine.adopt(result)


def _suppressed_elsewhere(path: str, sources: dict[str, SourceText], diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """``diagnostics`` minus those a suppression in the other file they are
    in silences (a finding on a values.yaml word, reported by the chart's
    template: the values file's ``# servelint: ignore[...]`` holds there
    too).  Unused suppressions there are that file's own lint's to report."""
    from ..suppress import apply

    for other, src in sources.items():
        if other == path or "servelint:" not in src.text or not any(d.path == other for d in diagnostics):
            continue
        diagnostics, _ = apply(other, src, parse_document(other, src.text), diagnostics)
    return diagnostics


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
    from ..fixes.apply_diff import fix_for
    from ..fixes.example_fix import alternatives

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
