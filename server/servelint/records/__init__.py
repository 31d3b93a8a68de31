"""Error records: what vLLM's errors mean and how to fix them.

A record (schemaVersion 2, the format of ``shared/seeds/``) describes one vLLM
error: its message and a ``messagePattern`` regex, documentation, trigger
scenarios, solutions and an ``exampleFix``.  A diagnostic is linked to a record
when the record's pattern matches the message vLLM prints for that problem in
the diagnostic's release, so users' own records attach with no code.

Users' records are data from outside: their ``messagePattern`` is compiled
with the ``regex`` module and run with a time limit (a pathological pattern
cannot hang the server).  The bundled records' patterns ship with the code
and are reviewed like it (linear, like the ``re`` patterns the parsers and
rules run on the same text), so they run with the standard ``re`` on
messages of a normal size: importing ``regex`` alone costs 10-20 ms of a cold
``servelint check``, whose whole budget is 150 ms.  On a message longer than
``MAX_UNTIMED_MESSAGE_CHARS`` they too run timed (tests check that each
compiles with both).  The Python snippets records carry (``validationCode``,
``typeGuard``, ``tryCatchPattern``) are documentation, never executed.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any, Iterable

from ..structs import dataclass, field
from .. import LazyLogger

log = LazyLogger(__name__)

HERE = os.path.dirname(__file__)
BUNDLED = (os.path.join(HERE, "seeds.json"), os.path.join(HERE, "servelint.json"))
# Time allowed for one pattern against one message.
MATCH_TIMEOUT_S = 0.05
MAX_RECORD_FILE_BYTES = 20_000_000
MAX_PATTERN_CHARS = 2_000

_LIST_FIELDS = ("solutions", "preventionTips", "tags")


class RecordData:
    """A record's fields as attributes (``rec.documentation``...).

    Bundled records are read as they are (a test validates them against the
    pydantic ``Record`` schema), because importing pydantic costs more than a
    whole ``servelint check`` of a small file; users' records are validated
    with the schema when loaded.
    """

    __slots__ = ("_data",)

    def __init__(self, data: dict) -> None:
        self._data = data

    def __getattr__(self, name: str):
        try:
            return self._data[name]
        except KeyError:
            if name.startswith("_"):
                raise AttributeError(name) from None
            return [] if name in _LIST_FIELDS else None

    def as_dict(self) -> dict:
        return dict(self._data)


@dataclass
class RecordProblem:
    """A record that could not be used, and why (file and field)."""

    path: str
    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.where}: {self.message}"


@dataclass
class LoadedRecord:
    """A record, the file it came from and its compiled ``messagePattern``."""

    record: RecordData
    path: str
    origin: str  # "seed" | "servelint" | "user"
    pattern: Any = None  # compiled regex, or None when the pattern is unusable

    @property
    def id(self) -> str:
        return self.record.id


@dataclass
class RecordStore:
    """The records in use (bundled first, then users'), and those left out."""

    records: list[LoadedRecord] = field(default_factory=list)
    problems: list[RecordProblem] = field(default_factory=list)

    @classmethod
    def load(cls, extra: Iterable[str] = ()) -> "RecordStore":
        store = cls()
        for path in BUNDLED:
            if os.path.exists(path):
                origin = "seed" if path.endswith("seeds.json") else "servelint"
                store._load_file(path, origin)
        for path in extra:
            store._load_path(path)
        return store

    def _load_path(self, path: str) -> None:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs.sort()
                for name in sorted(files):
                    if name.endswith((".json", ".jsonl", ".txt")):
                        self._load_file(os.path.join(root, name), "user")
        elif os.path.exists(path):
            self._load_file(path, "user")
        else:
            self.problems.append(RecordProblem(path, "-", "no such file or directory"))

    def _load_file(self, path: str, origin: str) -> None:
        try:
            size = os.path.getsize(path)
            if size > MAX_RECORD_FILE_BYTES:
                self.problems.append(RecordProblem(path, "-", f"file too large ({size:,} bytes; limit {MAX_RECORD_FILE_BYTES:,})"))
                return
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        except (OSError, UnicodeDecodeError) as exc:
            self.problems.append(RecordProblem(path, "-", f"cannot read: {exc}"))
            return
        for where, raw in _entries(path, text, self.problems):
            self._add(path, where, raw, origin)

    def _add(self, path: str, where: str, raw: Any, origin: str) -> None:
        if isinstance(raw, dict) and isinstance(raw.get("record"), dict):
            raw = raw["record"]
        if not isinstance(raw, dict):
            self.problems.append(RecordProblem(path, where, "a record must be a JSON object"))
            return
        if origin == "user":
            problem = validate(raw)
            if problem is not None:
                self.problems.append(RecordProblem(path, f"{where} field {problem[0]}", problem[1]))
                return
        elif not isinstance(raw.get("id"), str) or not isinstance(raw.get("messagePattern"), str):
            self.problems.append(RecordProblem(path, where, "bundled record without id or messagePattern"))
            return
        rec = RecordData(raw)
        pattern = _compile(raw["messagePattern"], trusted=origin != "user")
        if pattern is None:
            self.problems.append(RecordProblem(path, f"{where} field messagePattern", "not a usable regular expression"))
        self.records.append(LoadedRecord(rec, path, origin, pattern))

    def match(self, message: str) -> LoadedRecord | None:
        """The record whose pattern matches ``message``; users' records win."""
        best = None
        for lr in self.records:
            if lr.pattern is None:
                continue
            try:
                ok = lr.pattern.fullmatch(message, timeout=MATCH_TIMEOUT_S) or lr.pattern.search(
                    message, timeout=MATCH_TIMEOUT_S
                )
            except TimeoutError:
                log.warning("record %s: messagePattern timed out; ignoring it from now on", lr.id)
                lr.pattern = None
                continue
            if ok:
                if lr.origin == "user":
                    return lr
                best = best or lr
        return best

    def get(self, record_id: str) -> LoadedRecord | None:
        return _by_id(self, record_id)


def _by_id(store: RecordStore, record_id: str) -> LoadedRecord | None:
    for lr in reversed(store.records):
        if lr.id == record_id:
            return lr
    return None


def validate(raw: dict) -> tuple[str, str] | None:
    """(field, message) of the first schema error of a record, or None."""
    from pydantic import ValidationError

    from .schema import Record

    try:
        Record.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err.get("loc", ())) or "-"
        return loc, err.get("msg", "invalid")
    return None


# Messages longer than this go through the timed ``regex`` even for bundled
# patterns: a message quotes the user's text, and a bundled pattern with two
# ``(.*)`` groups is polynomial on a long one.  Real messages are far shorter.
MAX_UNTIMED_MESSAGE_CHARS = 2_000


class _Bundled:
    """A bundled record's pattern: the stdlib ``re`` for messages of a
    normal size, the timed ``regex`` past ``MAX_UNTIMED_MESSAGE_CHARS``.
    Same calling convention as ``regex``.

    Compiled on first need, and not even then for a message that lacks the
    literal text the pattern starts with (``unrecognized arguments: ``):
    compiling the bundled patterns was ~4 ms of a cold ``servelint check``,
    where most of them never see a message they could match.  That they
    compile is checked by tests/records, not at load."""

    __slots__ = ("_source", "_prefix", "_re", "_timed")

    def __init__(self, pattern: str) -> None:
        self._source = pattern
        self._prefix = _literal_prefix(pattern)
        self._re = None
        self._timed = None

    def _for(self, string: str):
        if len(string) <= MAX_UNTIMED_MESSAGE_CHARS:
            if self._re is None:
                try:
                    self._re = re.compile(self._source)
                except (re.error, TypeError, ValueError, RecursionError, OverflowError):
                    self._re = _NEVER  # cannot happen for a pattern the tests compiled
            return self._re, {}
        if self._timed is None:
            import regex

            try:
                self._timed = regex.compile(self._source)
            except (regex.error, TypeError, ValueError, RecursionError, OverflowError):
                self._timed = _NEVER
        return self._timed, {"timeout": MATCH_TIMEOUT_S}

    def fullmatch(self, string: str, timeout: float | None = None):
        if self._prefix not in string:
            return None
        pattern, kw = self._for(string)
        return pattern.fullmatch(string, **kw)

    def search(self, string: str, timeout: float | None = None):
        if self._prefix not in string:
            return None
        pattern, kw = self._for(string)
        return pattern.search(string, **kw)

    @property
    def pattern(self) -> str:
        return self._source


class _Never:
    """A pattern that matches nothing (takes the ``timeout`` ``regex`` takes)."""

    def fullmatch(self, string: str, timeout: float | None = None):
        return None

    search = fullmatch


_NEVER = _Never()
_SPECIAL = frozenset("\\.^$*+?{}[]|()")


def _literal_prefix(pattern: str) -> str:
    """Text every match of ``pattern`` starts with ("" when there is none to
    be sure of): its leading characters up to the first special one, minus
    the last if a quantifier follows it; nothing when the pattern has an
    alternation anywhere."""
    if "|" in pattern:
        return ""
    i = 0
    while i < len(pattern) and pattern[i] not in _SPECIAL:
        i += 1
    if i < len(pattern) and pattern[i] in "*?{+":
        i -= 1
    return pattern[:max(i, 0)]


def _compile(pattern: str, trusted: bool = False):
    if len(pattern) > MAX_PATTERN_CHARS:
        return None
    if trusted:
        return _Bundled(pattern)
    import regex

    try:
        return regex.compile(pattern)
    except (regex.error, TypeError, ValueError, RecursionError, OverflowError):
        return None


def _entries(path: str, text: str, problems: list[RecordProblem]):
    """(where, object) for every record in a .json (object or list), .jsonl, or seed .txt file."""
    stripped = text.strip()
    if not stripped:
        return
    try:
        data = json.loads(stripped)
    except ValueError:
        data = None
    if data is not None:
        if isinstance(data, dict) and isinstance(data.get("records"), list):
            data = data["records"]
        if isinstance(data, list):
            for i, item in enumerate(data):
                yield f"record {i}", item
        else:
            yield "record 0", data
        return
    # JSON lines, or several objects back to back.
    decoder = json.JSONDecoder()
    pos, index = 0, 0
    while pos < len(text):
        while pos < len(text) and text[pos] in " \t\r\n":
            pos += 1
        if pos >= len(text):
            break
        try:
            obj, end = decoder.raw_decode(text, pos)
        except ValueError as exc:
            line = text.count("\n", 0, pos) + 1
            problems.append(RecordProblem(path, f"line {line}", f"invalid JSON: {exc}"))
            return
        yield f"record {index}", obj
        index += 1
        pos = end
