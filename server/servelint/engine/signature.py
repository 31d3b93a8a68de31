"""A rule's inputs as a comparable value: when it is equal to the last
lint's, the rule's findings are reused instead of running it again.

What a rule read is recorded while it runs (``derive.view``: every flag,
variable, model or config read through the ``Context`` it was handed); its
signature is the value of each of those reads, with every place given
relative to the launch's start, so that a launch that only moved keeps it.
A rule whose inputs are unchanged makes the same reads again and finds the
same things, so the reads of its last run are the ones to compare.

The hand-written ``Rule.reads`` is only a hint: with ``SERVELINT_CHECK_READS=1``
the engine logs each read a rule made that its hint leaves out (once per
rule and read).  Such a read is not a bug any more, only a hint to update:
a family's shared evaluation (memoised, see ``derive.view.memo``) counts for
every rule that uses it.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from .. import LazyLogger
from ..derive import view
from ..edits import is_literal
from ..release import ReleaseChoice
from ..rules import Rule
from ..settings import Settings
from ..text import Span

if TYPE_CHECKING:  # pragma: no cover
    from .. import argv

CHECK_READS = os.environ.get("SERVELINT_CHECK_READS") == "1"
log = LazyLogger(__name__)


class Inputs:
    """What a launch gives its rules, each part described once relative to
    the launch's start: a rule's signature picks the parts it read (a launch
    with thousands of flags is not scanned once per rule)."""

    def __init__(self, inv: "argv.Invocation", base: int) -> None:
        self.inv, self.base = inv, base
        self.all: list[tuple] = []
        self.by_dest: dict[str, list[tuple]] = {}
        for f in inv.flags:
            extra = f.unexpected_value
            row = (
                f.string, f.written, f.spelling, f.source, f.dotted_key,
                f.name_span.start - base, f.name_span.end - base,
                tuple(_word(w, base) for w in f.values),
                # What argparse rejects before any type check is read too
                # (`--enforce-eager=tru`: its text is in the finding).
                f.explicit, f.missing_value,
                None if extra is None else _word(extra, base),
            )
            self.all.append(row)
            self.by_dest.setdefault(f.dest, []).append(row)
        launch = inv.launch
        # What every rule depends on: the launch's kind, where launch-wide
        # findings are anchored (the entry), and the words it could not
        # resolve ("$@"), which silence rules that would report a missing flag.
        self.common = (launch.form, launch.entry, launch.image, getattr(launch, "entry_unknown", None),
                       tuple(w.text for w in launch.opaque),
                       launch.entry_span.start - base, launch.entry_span.end - base)
        self._parts: dict[tuple, object] = {}

    def part(self, key: tuple) -> object:
        """The value of one recorded read, computed once per launch."""
        got = self._parts.get(key, _MISSING)
        if got is _MISSING:
            got = self._parts[key] = self._compute(key)
        return got

    def _compute(self, key: tuple) -> object:
        inv, base = self.inv, self.base
        kind = key[0]
        if kind == "flag":
            return tuple(self.by_dest.get(key[1], ()))
        if kind == "flags":
            return tuple(self.all)
        if kind == "model":
            m = inv.model
            # The flags that decide which config.json the resolution may use
            # (engine.io._config_revision) are part of the model.
            config_from = tuple(tuple(self.by_dest.get(d, ())) for d in ("revision", "hf_config_path", "config_format"))
            return (inv.model_source, None if m is None else _word(m, base), config_from)
        if kind == "extra":
            return tuple((w.text, w.span.start - base, w.span.end - base) for w in inv.extra)
        if kind == "config":
            # The same `--config FILE` words read differently once the file
            # appears, disappears or changes (an editor opens it unsaved).
            cfg = inv.config_launch
            return (inv.config_state, inv.config_file, None if cfg is None else tuple(w.text for w in cfg.args))
        if kind == "env":
            if len(key) == 1:
                return tuple(sorted((name, var.value, var.exact) for name, var in inv.env.items()))
            var = inv.env.get(key[1])
            return None if var is None else (var.value, var.exact)
        if kind == "problems":
            return tuple((p.code, p.message, p.span.start - base, p.span.end - base, tuple(sorted(p.data.items())))
                         for p in inv.launch.problems)
        if kind == "args":
            return tuple(_word(w, base) for w in inv.launch.args)
        if kind == "deployment":
            return deployment_part(inv.launch, base)
        # EVERYTHING, or a key this engine does not know: the whole launch.
        return tuple(self.part(k) for k in _WHOLE)


def _word(w, base: int) -> tuple:
    """A word as a rule may read it: its text, its place from the launch's
    start, whether its value is known, and whether each of its characters is
    written where it stands (``edits.is_literal``): a fix rewrites only a word
    written literally, so the same text brought in by a variable instead (an
    ``ENV`` line above, broken by a keystroke) is another input."""
    return (w.text, w.span.start - base, w.span.end - base, w.exact, is_literal(w))


def deployment_part(launch, base: int) -> tuple:
    """A launch's deployment facts with their places relative to ``base``."""
    def rel(span: Span) -> Span:
        return Span(span.start - base, span.end - base)

    own, linked = getattr(launch, "deployment", None), getattr(launch, "linked", None)
    return (None if own is None else own.moved(rel), None if linked is None else linked.moved(rel))


_MISSING = object()
_WHOLE = (view.FLAGS, view.MODEL, view.EXTRA, view.CONFIG, view.ALL_ENV, view.PROBLEMS, view.ARGS, view.DEPLOYMENT)


def signature(reads: frozenset, inputs: Inputs, release: ReleaseChoice, settings: Settings) -> tuple:
    """The value of every read in ``reads``, for this launch."""
    parts: list = [release.version, settings.target, inputs.common]
    for key in _in_order(reads):
        parts.append((key, inputs.part(key)))
    return tuple(parts)


# Each rule's reads in a fixed order, kept by the set: a keystroke takes the
# signature of every rule of the launch it changed, twice, and sorting by
# ``repr`` was most of it.  (Bounded: read sets are per rule and flag.)
_ORDER: dict[frozenset, tuple] = {}
_ORDER_LIMIT = 4096


def _in_order(reads: frozenset) -> tuple:
    got = _ORDER.get(reads)
    if got is None:
        if len(_ORDER) >= _ORDER_LIMIT:
            _ORDER.clear()
        got = _ORDER[reads] = tuple(sorted(reads, key=repr))
    return got


_REPORTED: set = set()


def check_reads(rule: Rule, reads: frozenset) -> list[tuple]:
    """With SERVELINT_CHECK_READS=1: the reads of ``rule`` its hint leaves
    out, each logged the first time it is seen."""
    hint = rule.reads
    missing = [key for key in reads if not _covered(key, hint)]
    for key in missing:
        if (rule.code, key) not in _REPORTED:
            _REPORTED.add((rule.code, key))
            log.warning("%s %s read %r beyond its reads hint", rule.code, rule.name, key)
    return missing


def _covered(key: tuple, hint: frozenset) -> bool:
    kind = key[0]
    if "*" in hint and kind in ("flag", "flags", "model", "extra", "args"):
        return True
    if kind == "flag":
        return key[1] in hint or ("?" in hint and key[1] is None)
    if kind == "env":
        return len(key) > 1 and key[1] in hint
    return kind in hint
