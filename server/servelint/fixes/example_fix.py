"""Quick fixes drawn from an error record's ``exampleFix``.

A record's ``exampleFix`` is a before/after pair of launch commands written as
a shell snippet, with comments marking the parts::

    # before (architecture='Mamba2ForCausalLM')
    vllm serve state-spaces/mamba-2.7b --use-replayssm

    # after
    vllm serve state-spaces/mamba-2.7b   # flag removed
    # or
    vllm serve nvidia/Nemotron-H-8B-v1 --use-replayssm \\
      --mamba-cache-mode align --mamba-backend triton

Each side is parsed with the same shell parser as user files and read with
the same release's argv semantics, so the difference between "before" and
each "after" alternative is a **flag diff**: flags removed, added, changed,
and the model changed.  A JSON-valued flag (``--speculative-config '{...}'``)
that changes is diffed key by key, so a fix can change or drop one key and
keep the user's others.  The diff, not the text, is applied to the user's own
launch, in its own form (see ``servelint.fixes.apply_diff``).  A snippet that
does not parse as launches yields no fix (and a log line), never a guess.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from ..structs import dataclass, field
from .. import LazyLogger
from ..argv import Invocation, interpret

log = LazyLogger(__name__)

_MARK = re.compile(r"^\s*#\s*(before|after|or)\b", re.I)


@dataclass(frozen=True)
class FlagChange:
    dest: str
    string: str  # the option string to write ("--mamba-backend")
    values: tuple[str, ...]  # () for boolean flags
    negated: bool = False


@dataclass(frozen=True)
class KeyChange:
    """One key of a JSON-valued flag set to ``value``, or removed."""

    dest: str
    string: str
    key: tuple[str, ...]  # the path inside the JSON object
    value: Any = None
    removed: bool = False


@dataclass
class FlagDiff:
    """What one "after" alternative changes relative to "before"."""

    removed: list[str] = field(default_factory=list)  # dests
    added: list[FlagChange] = field(default_factory=list)
    changed: list[FlagChange] = field(default_factory=list)
    keys: list[KeyChange] = field(default_factory=list)
    model: str | None = None  # the new model, when it changes

    @property
    def empty(self) -> bool:
        return not (self.removed or self.added or self.changed or self.keys or self.model)


def split_sections(text: str) -> tuple[str, list[str]] | None:
    """The "before" snippet and the "after" alternatives, or None without markers."""
    before: list[str] = []
    afters: list[list[str]] = []
    current = None
    for line in text.splitlines():
        m = _MARK.match(line)
        if m:
            kind = m.group(1).lower()
            if kind == "before":
                current = before
            else:
                afters.append([])
                current = afters[-1]
            continue
        if current is not None:
            current.append(line)
    afters = [a for a in afters if any(s.strip() for s in a)]
    if not any(s.strip() for s in before) or not afters:
        return None
    return "\n".join(before), ["\n".join(a) for a in afters]


def _launch(snippet: str):
    from ..parse.shell import parse_shell

    result = parse_shell(snippet)
    launches = [launch for launch in result.launches]
    if len(launches) != 1:
        return None
    (launch,) = launches
    broken = [p for p in [*result.problems, *launch.problems] if p.severity == "error"]
    if broken or launch.opaque or not all(w.exact for w in launch.args):
        return None  # a snippet read only in part would give a diff that is not the record's
    return launch


def _flags(inv: Invocation) -> dict[str, FlagChange]:
    out: dict[str, FlagChange] = {}
    for f in inv.flags:
        if f.option is None or f.option.dest in ("model", "config"):
            continue
        out[f.option.dest] = FlagChange(
            f.option.dest,
            f.option.name if not f.negated else (f.string or f.option.name),
            tuple(w.text for w in f.values),
            f.negated,
        )
    return out


def _json_object(change: FlagChange) -> dict | None:
    if len(change.values) != 1:
        return None
    try:
        value = json.loads(change.values[0])
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def key_changes(dest: str, string: str, before: dict, after: dict, at: tuple[str, ...] = ()) -> list[KeyChange]:
    out = [KeyChange(dest, string, at + (k,), removed=True) for k in before if k not in after]
    for k, v in after.items():
        old = before.get(k)
        if isinstance(old, dict) and isinstance(v, dict):
            out.extend(key_changes(dest, string, old, v, at + (k,)))
        elif k not in before or old != v:
            out.append(KeyChange(dest, string, at + (k,), v))
    return out


def diff(before: Invocation, after: Invocation) -> FlagDiff:
    b, a = _flags(before), _flags(after)
    d = FlagDiff()
    d.removed = [dest for dest in b if dest not in a]
    d.added = [a[dest] for dest in a if dest not in b]
    for dest in a:
        if dest not in b or a[dest] == b[dest]:
            continue
        old, new = _json_object(b[dest]), _json_object(a[dest])
        if old is not None and new is not None:
            d.keys.extend(key_changes(dest, a[dest].string, old, new))
        else:
            d.changed.append(a[dest])
    if after.model_name != before.model_name:
        d.model = after.model_name
    return d


@dataclass
class Alternative:
    diff: FlagDiff
    index: int  # 0 = the record's first, least invasive alternative


def _parse_alternatives(example_fix: str, version: str) -> list[Alternative] | None:
    from .. import knowledge

    parts = split_sections(example_fix)
    if parts is None:
        return None
    kn = knowledge.load(version)
    before_launch = _launch(parts[0])
    if before_launch is None:
        return None
    before = interpret(before_launch, kn)
    out = []
    for i, snippet in enumerate(parts[1]):
        launch = _launch(snippet)
        if launch is None:
            return None
        d = diff(before, interpret(launch, kn))
        if not d.empty:
            out.append(Alternative(d, i))
    return out


@lru_cache(maxsize=256)
def alternatives(record_id: str, example_fix: str, version: str) -> tuple[Alternative, ...]:
    """The flag diffs of a record's exampleFix, read with ``version``'s parser."""
    try:
        alts = _parse_alternatives(example_fix, version)
    except Exception:  # a record is data from outside: never let it break a lint
        log.exception("record %s: exampleFix could not be read", record_id)
        return ()
    if alts is None:
        log.info("record %s: exampleFix does not parse as before/after launches; no fix offered", record_id)
        return ()
    return tuple(alts)
