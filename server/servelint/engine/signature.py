"""A rule's inputs as a comparable value: when it is equal to the last
lint's, the rule's findings are reused instead of running it again.

A rule declares what it reads (``Rule.reads``: flag dests, ``*`` for every
flag, ``?`` for flags no option knows, ``model``, ``config``, environment
names in capitals); its signature is those inputs, with every place given
relative to the launch's start, so that a launch that only moved keeps it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..release import ReleaseChoice
from ..rules import Rule
from ..settings import Settings

if TYPE_CHECKING:  # pragma: no cover
    from .. import argv


class Inputs:
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


def signature(rule: Rule, inputs: Inputs, release: ReleaseChoice, settings: Settings) -> tuple:
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
