"""Per-release, per-entry-point vLLM options and architecture facts, read from data/.

The data files are generated from vLLM's own package by
``tools/knowledge/generate.py`` (see its README) and checked in; nothing here
touches the network or imports vLLM.

Loading is split by cost, because the CLI's whole cold start must fit in
150 ms:

* ``release-<version>.json.gz`` holds one release: its distinct option
  rows, for each entry point (``serve``, ``api_server``,
  ``demo_api_server``) a list of ``[row, file, line]`` references and the
  parser's observed behaviour (``facts``), and the release's architecture
  row ids.
* help texts (``help.json.gz``) and the field trees of JSON-valued options
  (``fields.json.gz``) are shared by all releases and read the first time
  any ``Option.help`` / ``Option.json`` is asked for.
* architecture facts are shared: ``architectures.json.gz`` (names, defaults,
  lists), read on the first access to ``Knowledge.architectures``, and
  ``architecture-rows.jsonl``, one row per line, of which only the rows of
  the architectures asked about are parsed.
"""

from __future__ import annotations

import bisect
import json
import os
import zlib
from collections.abc import Iterator, Mapping

# os.path rather than pathlib: pathlib alone costs ~5 ms of cold start.
DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")

# The attributes of an Option.  A stored row (a release file's option_rows) has them in
# this order without "defined_at" (the release file gives it per release,
# since line numbers move), and then the "help" and "json" references.
CORE_COLUMNS = (
    "dest",
    "strings",
    "visible",
    "negative",
    "kind",
    "action",
    "nargs",
    "const",
    "type",
    "choices",
    "metavar_choices",
    "metavar",
    "default",
    "group",
    "deprecated",
    "constraints",
    "human_readable_int",
    "defined_at",
    "positional",
)
ROW_COLUMNS = tuple(c for c in CORE_COLUMNS if c != "defined_at")
# The entry points a release file may describe, in the order servelint
# prefers them.
ENTRY_POINTS = ("serve", "api_server", "demo_api_server")


class UnknownRelease(KeyError):
    """A vLLM version servelint has no generated data for."""

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0]) if self.args else "unknown vLLM release"


def _read_json(name: str) -> object:
    # DATA_DIR is looked up at call time: the generator and its tests point
    # it at a copy of the tables.
    with open(os.path.join(DATA_DIR, name), "rb") as f:
        data = f.read()
    if name.endswith(".gz"):
        # zlib (built in) reads the gzip format with wbits=31 and imports in
        # microseconds, unlike the gzip module.
        data = zlib.decompress(data, 31)
    return json.loads(data)


_index: dict | None = None


def _get_index() -> dict:
    global _index
    if _index is None:
        # A missing index only happens while the generator bootstraps data/.
        exists = os.path.exists(os.path.join(DATA_DIR, "index.json"))
        _index = _read_json("index.json") if exists else {"releases": []}
    return _index


def available_releases() -> tuple[str, ...]:
    """Versions with generated data, ascending."""
    return tuple(_get_index()["releases"])


def canonical_version(version: str) -> str:
    """``"v0.33.0"`` -> ``"0.33.0"``; raise UnknownRelease if not known."""
    v = version.strip()
    if v[:1] in ("v", "V"):
        v = v[1:]
    if v not in _get_index()["releases"]:
        known = ", ".join(_get_index()["releases"])
        raise UnknownRelease(f"no servelint knowledge for vLLM {version!r}; known releases: {known}")
    return v


_pools: dict[str, list] = {}


def _pooled(name: str, i: int | None) -> object:
    """Entry ``i`` of a shared pool file (help.json.gz, fields.json.gz)."""
    if i is None:
        return None
    pool = _pools.get(name)
    if pool is None:
        pool = _pools[name] = _read_json(name)["texts"]
    return pool[i]


_trees: dict[int, dict] = {}
INTERNED_ENTRY_KEYS = ("help", "choices")


def _tree(i: int | None) -> dict | None:
    """Rebuild a JSON-option field tree interned by the generator: a tree is
    ``{name: entry id}``, an entry's nested ``fields`` is a tree id and its
    ``help``/``choices`` are item ids.  Built once and shared: callers must
    not modify it."""
    if i is None:
        return None
    if i in _trees:
        return _trees[i]
    out = _trees[i] = {}
    for name, entry_id in _pooled("fields.json.gz", i).items():
        entry = _pooled("fields.json.gz", entry_id)
        if isinstance(entry, dict):
            entry = dict(entry)
            if "fields" in entry:
                entry["fields"] = _tree(entry["fields"])
            for key in INTERNED_ENTRY_KEYS:
                if key in entry:
                    entry[key] = _pooled("fields.json.gz", entry[key])
        out[name] = entry
    return out


class Option:
    """One argparse action of one entry point's parser (one ``dest``).

    ``strings`` are every spelling the parser accepts: ``visible`` ones (shown
    by ``--help``) and ``hidden`` aliases.  ``negative`` are the spellings that
    store False (``--no-x``, and in 0.33.0+ ``--disable-x`` for ``enable_x``);
    they were observed by parsing each spelling with vLLM's parser.

    ``kind``: ``bool`` (BooleanOptionalAction / EnableDisableAction),
    ``store_true``, ``store``, ``append``, ``help`` or ``custom`` (then
    ``action`` names the class, e.g. ``LoRAParserAction``).

    ``choices`` are enforced by argparse; ``metavar_choices`` are only listed
    in the help (vLLM does that for ``Literal[...] | str`` fields) and any
    value parses.  ``default`` is the parser's default as computed on
    CpuPlatform (see tools/knowledge/README.md for CPU vs GPU).
    """

    __slots__ = CORE_COLUMNS + ("hidden", "takes_value", "_help", "_json")

    def __init__(self, row: list, defined_at: str | None = None) -> None:
        # ``row`` is a stored row: ROW_COLUMNS, then the help and json refs.
        self.defined_at = defined_at
        (
            self.dest,
            self.strings,
            self.visible,
            self.negative,
            self.kind,
            self.action,
            self.nargs,
            self.const,
            self.type,
            self.choices,
            self.metavar_choices,
            self.metavar,
            self.default,
            self.group,
            self.deprecated,
            self.constraints,
            self.human_readable_int,
            self.positional,
            self._help,
            self._json,
        ) = row
        visible = self.visible
        self.hidden = [s for s in self.strings if s not in visible]
        self.takes_value = self.nargs != 0

    @property
    def help(self) -> str | None:
        return _pooled("help.json.gz", self._help)

    @property
    def json(self) -> dict | None:
        """None, or ``{"kind": "dataclass"|"dict"|"dict-or-str",
        "dataclass": name|None, "fields": {name: {type, default, help,
        choices, constraints, fields...}}|None}``.

        ``dataclass`` kinds are validated by pydantic while parsing; ``dict``
        kinds are only ``json.loads``-ed then (vLLM validates some of them,
        e.g. ``--speculative-config``, later in ``create_engine_config``).
        """
        if self._json is None:
            return None
        kind, dataclass, fields = self._json
        return {"kind": kind, "dataclass": dataclass, "fields": _tree(fields)}

    @property
    def name(self) -> str:
        """The canonical spelling: the first visible ``--`` string."""
        for s in self.visible:
            if s.startswith("--"):
                return s
        return self.strings[0] if self.strings else self.dest

    def __repr__(self) -> str:
        return f"Option({self.name!r}, kind={self.kind!r})"


class ArchFacts:
    """``_ModelInfo`` of one registered architecture, in one release.

    Every ``_ModelInfo`` field is an attribute (``supports_pp``,
    ``is_hybrid``, ``supports_replayssm``...).  A field some other release
    has but this one lacks reads as None (e.g. ``supports_replayssm`` before
    0.27.0).  ``error`` is set (and the fields are None) when the model class
    could not be imported on the CPU-only machine that generated the data.

    The facts are those of the class vLLM loads on CpuPlatform.  A few
    hardware-isolated packages load another class on CUDA; for those
    ``platform_dependent`` is ``{"cpu": class path, "cuda": class path}``
    (read from the package source) and a GPU deployment may differ.
    """

    __slots__ = (
        "name",
        "fields",
        "module",
        "class_name",
        "resolved_class",
        "interfaces",
        "registry_groups",
        "models_config_map",
        "extras",
        "error",
        "platform_dependent",
        "_info",
        "_all_fields",
    )

    def __init__(self, name: str, row: dict, rel: dict, data: dict) -> None:
        fields = rel["model_info_fields"]
        lists = data["lists"]
        self.name = name
        self.fields = fields
        self.module = row["module"]
        self.class_name = row["class_name"]
        self.resolved_class = row["resolved_class"]
        self.interfaces = [] if row["interfaces_in_mro"] is None else lists[row["interfaces_in_mro"]]
        self.registry_groups = [] if row["registry_groups"] is None else lists[row["registry_groups"]]
        self.models_config_map = row["models_config_map"]
        self.error = row.get("error")
        self.platform_dependent = row.get("platform_dependent")
        # Rows are sparse: only values that differ from the most common one
        # are stored (see generate.py's encode_architectures).
        if self.error:
            self._info = {}
            self.extras = {}
        else:
            info, defaults = row["info"], data["defaults"]
            self._info = {f: info.get(f, defaults[f]) for f in fields}
            extras, edefaults = row["extras"], data["extras_defaults"]
            self.extras = {}
            for n in rel["extras"]:
                value = extras.get(n, edefaults[n])
                if value is not None:  # None: the predicate failed for this class
                    self.extras[n] = value
        self._all_fields = data["fields"]

    def __getattr__(self, attr: str) -> object:
        # Only called for names that are not slots: the _ModelInfo fields.
        if attr.startswith("__"):
            raise AttributeError(attr)
        info = object.__getattribute__(self, "_info")
        if attr in info:
            return info[attr]
        if attr in object.__getattribute__(self, "_all_fields"):
            return None
        raise AttributeError(f"ArchFacts has no field {attr!r}")

    def as_dict(self) -> dict:
        return dict(self._info)

    def __repr__(self) -> str:
        return f"ArchFacts({self.name!r})"


_archs: dict | None = None
_arch_lines: list[bytes] | None = None


def _arch_data() -> dict:
    global _archs
    if _archs is None:
        _archs = _read_json("architectures.json.gz")
    return _archs


def _arch_row(i: int) -> list:
    """Row ``i`` of architecture-rows.jsonl (the file is split once, each
    row parsed when asked for)."""
    global _arch_lines
    if _arch_lines is None:
        with open(os.path.join(DATA_DIR, "architecture-rows.jsonl"), "rb") as f:
            _arch_lines = f.read().split(b"\n")
    return json.loads(_arch_lines[i])


# Columns of a row in architectures.json.gz (the encoder writes them too).
ARCH_ROW_COLUMNS = (
    "module",
    "class_name",
    "registry_groups",  # index into "lists"
    "models_config_map",
    "resolved_class",
    "interfaces_in_mro",  # index into "lists"
    "info",  # sparse _ModelInfo: only values that differ from "defaults"
    "extras",  # sparse, against "extras_defaults"; None: predicate failed
    "platform_dependent",
    "error",
)


class Architectures(Mapping):
    """Architecture name -> ArchFacts for one release (built on first use)."""

    def __init__(self, version: str, rel: dict | None = None, source: dict | None = None) -> None:
        data = _arch_data()
        if rel is None:
            whole = _release_file(version)
            rel, source = whole["architectures"], whole["source"]
        self.source: dict = source or {}
        self._data = data
        self._rel = rel
        self._fields = rel["model_info_fields"]
        # names[i] -> row id in this release (None: not registered).
        self._map: dict[str, int] = {
            name: rid for name, rid in zip(data["names"], rel["rows"]) if rid is not None
        }
        self._made: dict[str, ArchFacts] = {}

    def row(self, name: str) -> dict:
        """The stored row of an architecture, by column name."""
        return dict(zip(ARCH_ROW_COLUMNS, _arch_row(self._map[name])))

    def __getitem__(self, name: str) -> ArchFacts:
        facts = self._made.get(name)
        if facts is None:
            facts = self._made[name] = ArchFacts(name, self.row(name), self._rel, self._data)
        return facts

    def __iter__(self) -> Iterator[str]:
        return iter(self._map)

    def __len__(self) -> int:
        return len(self._map)

    def __contains__(self, name: object) -> bool:
        return name in self._map

    @property
    def model_info_fields(self) -> list[str]:
        return list(self._fields)


class Knowledge:
    """What servelint knows about one entry point of one vLLM release: the
    options its parser accepts and what the parser does with the inputs
    whose handling changed between releases (``facts``).

    ``load(version)`` gives the ``vllm serve`` parser; ``for_entry(name)``
    another entry point of the same release (``api_server``: ``python -m
    vllm.entrypoints.openai.api_server``, where the model is the ``--model``
    flag; ``demo_api_server``: ``python -m vllm.entrypoints.api_server``).
    The architectures are the release's, whichever the entry point.
    """

    def __init__(self, version: str, entry: str, data: dict, release: "ReleaseFile") -> None:
        self.version = version
        self.entry = entry
        self.release = release
        self.source: dict = release.source
        self.built_by: str = data["built_by"]
        self.facts: dict = data.get("facts") or {}
        rows, files = release.option_rows, release.option_files
        self.options: list[Option] = [
            Option(rows[r], None if f is None else files[f] if line is None else f"{files[f]}:{line}")
            for r, f, line in data["options"]
        ]
        self.by_dest: dict[str, Option] = {o.dest: o for o in self.options}
        self.by_string: dict[str, Option] = {s: o for o in self.options for s in o.strings}
        self.long_strings: list[str] = sorted(s for s in self.by_string if s.startswith("--"))
        self._option_strings: tuple[str, ...] | None = None

    @property
    def option_strings(self) -> tuple[str, ...]:
        """Every option string, the long ones (sorted) first, then the short
        ones: where a near miss of an unknown flag is looked for, on every
        keystroke that leaves one in the file."""
        got = self._option_strings
        if got is None:
            got = self._option_strings = tuple(self.long_strings + [s for s in self.by_string if not s.startswith("--")])
        return got

    @property
    def architectures(self) -> Architectures:
        return self.release.architectures

    @property
    def entries(self) -> tuple[str, ...]:
        """The entry points this release has (parsers that could be built)."""
        return self.release.entries

    def for_entry(self, entry: str) -> "Knowledge":
        """The same release's knowledge of another entry point; KeyError if
        the release has no such entry point."""
        return self.release.entry(entry)

    def with_prefix(self, prefix: str) -> list[str]:
        """The ``--`` strings that start with ``prefix``, as argparse's
        abbreviation matching sees them (one match: accepted; several:
        "ambiguous option")."""
        i = bisect.bisect_left(self.long_strings, prefix)
        out = []
        while i < len(self.long_strings) and self.long_strings[i].startswith(prefix):
            out.append(self.long_strings[i])
            i += 1
        return out

    def __repr__(self) -> str:
        return f"<vLLM {self.version} {self.entry} knowledge: {len(self.options)} options>"


class ReleaseFile:
    """One release file: its entry points (read into Knowledge on demand)
    and architecture rows."""

    def __init__(self, version: str, data: dict) -> None:
        self.version = version
        self.source: dict = data["source"]
        self._entries: dict = data["entries"]
        self.option_rows: list = data["option_rows"]
        self.option_files: list = data["option_files"]
        self._arch_rel: dict = data["architectures"]
        self._made: dict[str, Knowledge] = {}
        self._architectures: Architectures | None = None
        self.entries: tuple[str, ...] = tuple(e for e in ENTRY_POINTS if "options" in self._entries.get(e, {}))

    def entry(self, name: str) -> Knowledge:
        kn = self._made.get(name)
        if kn is None:
            data = self._entries.get(name)
            if data is None or "options" not in data:
                raise KeyError(f"vLLM {self.version} has no {name} entry point")
            kn = self._made[name] = Knowledge(self.version, name, data, self)
        return kn

    def ships(self, name: str) -> bool | None:
        """Whether the release has entry point ``name``'s module: True, False
        (the generator found no such module in the wheel), or None (it is
        there but its parser could not be built, so servelint cannot say
        what it accepts)."""
        data = self._entries.get(name)
        if data is None:
            return False
        return True if "options" in data else None

    def entry_error(self, name: str) -> str | None:
        """Why an entry point the release has could not be read, if so."""
        data = self._entries.get(name) or {}
        return data.get("error")

    @property
    def architectures(self) -> Architectures:
        if self._architectures is None:
            self._architectures = Architectures(self.version, self._arch_rel, self.source)
        return self._architectures


# The name the rest of servelint uses in type annotations.
ReleaseKnowledge = Knowledge

_files: dict[str, ReleaseFile] = {}
_loaded: dict[tuple[str, str], Knowledge] = {}


def _release_file(version: str) -> dict:
    return _read_json(f"release-{version}.json.gz")


def release_file(version: str) -> ReleaseFile:
    """The release's file (cached).  Raises UnknownRelease."""
    rf = _files.get(version)
    if rf is None:
        v = canonical_version(version)
        rf = _files.get(v)
        if rf is None:
            rf = _files[v] = ReleaseFile(v, _release_file(v))
        _files[version] = rf
    return rf


def load(version: str, entry: str = "serve") -> Knowledge:
    """One entry point of one release (cached; ``vllm serve`` by default).
    Raises UnknownRelease, or KeyError for an entry point the release lacks."""
    kn = _loaded.get((version, entry))
    if kn is None:
        kn = _loaded[(version, entry)] = release_file(version).entry(entry)
    return kn


def clear_caches() -> None:
    """Forget everything read from data/ (for the generator and tests)."""
    global _index, _archs, _arch_lines
    _index = _archs = _arch_lines = None
    _files.clear()
    _loaded.clear()
    _pools.clear()
    _trees.clear()


def _option_record(o: Option) -> dict:
    rec = {c: getattr(o, c) for c in CORE_COLUMNS}
    rec["json"] = o.json
    rec["help"] = o.help
    return rec


def export_record(version: str) -> dict:
    """One release as the generator's normalised record: every field
    resolved, every entry point and the architectures included (used to
    re-encode data/)."""
    v = canonical_version(version)
    data = _release_file(v)
    rf = release_file(v)
    entries = {}
    for name, e in data["entries"].items():
        if "options" not in e:
            entries[name] = dict(e)
            continue
        kn = rf.entry(name)
        entries[name] = {"built_by": e["built_by"], "options": [_option_record(o) for o in kn.options],
                         "facts": e.get("facts") or {}}
    table = Architectures(v, data["architectures"])
    architectures = {}
    for name in table:
        f = table[name]
        rec = {
            "module": f.module,
            "class_name": f.class_name,
            "registry_groups": f.registry_groups,
            "models_config_map": f.models_config_map,
        }
        if f.platform_dependent:
            rec["platform_dependent"] = f.platform_dependent
        if f.error:
            rec["error"] = f.error
        else:
            rec["model_info"] = f.as_dict()
            rec["resolved_class"] = f.resolved_class
            rec["interfaces_in_mro"] = f.interfaces
            rec["extras"] = dict(f.extras)
        architectures[name] = rec
    return {
        "version": v,
        "source": data["source"],
        "entries": entries,
        "model_info_fields": table.model_info_fields,
        "architectures": architectures,
        "problems": [],
    }


def normalise_string(option_string: str) -> str:
    """Reduce a flag as written to the option string argparse looks up:
    ``--max_model_len=8k`` -> ``--max-model-len``; ``--compilation-config.mode``
    -> ``--compilation-config``.  vLLM rewrites ``_`` to ``-`` in the name
    before the first dot; single-dash aliases are left alone."""
    s = option_string.strip().split("=", 1)[0]
    if s.startswith("--"):
        return "--" + s[2:].split(".", 1)[0].replace("_", "-")
    return s
