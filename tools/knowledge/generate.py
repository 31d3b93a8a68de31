#!/usr/bin/env python3
"""Generate servelint's per-release vLLM knowledge from vLLM itself.

    python tools/knowledge/generate.py 0.34.0          # add (or refresh) a release
    python tools/knowledge/generate.py --all           # every release on the index from 0.6.0
    python tools/knowledge/generate.py --rebuild       # re-encode data/ only (no vLLM)
    python tools/knowledge/generate.py --from-raw V..  # re-normalise raw dumps already made

For each VERSION it

1. puts the release where it can run (``provision.py``: the vllm-oracle
   tool's home for releases it has set up, else servelint's own release
   home: download the wheel, unpack it, delete the wheel);
2. runs ``dump_release.py`` inside that environment: provenance, the parser
   of every entry point the release has (``vllm serve``, ``python -m
   vllm.entrypoints.openai.api_server``, the old demo server), what each
   boolean spelling stores, parser probes, and the model registry;
3. reads the release's Dockerfiles from its source distribution
   (``images.py``) for what the upstream images run;
4. deletes the unpacked release (servelint's home only);
5. normalises the dump into one release record, cross-checks it, and
   re-encodes the data files of *all* releases (the other releases are read
   back from the checked-in data, so only the new release needs vLLM);
6. prints a report of what changed against the release before it (flags
   added, removed, renamed, defaults, entry points, architectures).

``make release V=0.34.0`` runs this, then the validator facts
(``validators.py``, when present) and the goldens and verdicts that depend on
the newest release (see README.md).  Nothing here is imported by servelint
at run time; the output in ``server/servelint/knowledge/data/`` is checked in.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import gzip
import json
import os
import re
import subprocess
import sys
from pathlib import Path

# Bump when the meaning of a generated field changes (recorded in the data).
GENERATOR_VERSION = "3"

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
DATA = Path(os.environ.get("SERVELINT_KNOWLEDGE_DATA", REPO / "server" / "servelint" / "knowledge" / "data"))
sys.path.insert(0, str(REPO / "server"))
sys.path.insert(0, str(HERE))

# The decoder: generate.py writes what servelint.knowledge reads, and reads
# the tables back (from DATA, which a test may point at a copy).
from servelint.knowledge import flags as _flags  # noqa: E402
from servelint.knowledge import history as _history  # noqa: E402

_flags.DATA_DIR = str(DATA)
_flags.clear_caches()  # servelint.knowledge read the index at import

# The first release servelint knows: the oldest one real launch files pin
# that still builds its parser on this machine's base venv.
OLDEST = "0.6.0"
ENTRIES = ("serve", "api_server", "demo_api_server")


def log(msg: str) -> None:
    print(f"[knowledge] {msg}", file=sys.stderr, flush=True)


def version_key(v: str) -> tuple:
    """``0.6.3.post1`` sorts after ``0.6.3`` and before ``0.6.4``."""
    parts = []
    for p in re.split(r"[.+]", v):
        m = re.fullmatch(r"(?:post)?(\d+)", p)
        parts.append(int(m.group(1)) if m else -1)
    return tuple(parts)


def raw_path(version: str) -> Path:
    import provision

    return provision.WORK / "raw" / f"release-{version}.json.gz"


# --- 1-4: provisioning and dumping ----------------------------------------------
def dump(version: str, keep: bool = False, then=None) -> tuple[dict, dict]:
    """(raw dump, wheel stamp) of one release; ``then(release)`` runs while
    the release is still unpacked, which is removed afterwards unless ``keep``."""
    import provision

    rel = provision.ensure(version)
    path = raw_path(version)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix("")  # release-V.json
    log(f"{version}: dump_release.py ({rel.root})")
    p = rel.run([str(HERE / "dump_release.py"), str(tmp)], stdout=sys.stderr)
    if p.returncode != 0:
        sys.exit(f"{version}: dump_release.py failed (exit {p.returncode})")
    data = tmp.read_bytes()
    path.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
    tmp.unlink()
    (path.parent / f"wheel-{version}.json").write_text(json.dumps(rel.ready))
    if then is not None:
        then(rel)
    if not keep:
        provision.remove(rel)
    return json.loads(data), rel.ready


def read_raw(version: str) -> tuple[dict, dict]:
    path = raw_path(version)
    ready = json.loads((path.parent / f"wheel-{version}.json").read_text())
    return json.loads(gzip.decompress(path.read_bytes())), ready


def index_versions() -> list[str]:
    """Every vllm release on the package index from OLDEST on (pip's own
    answer: ``pip index versions vllm``)."""
    import provision

    p = subprocess.run([str(provision.VPY), "-m", "pip", "index", "versions", "vllm"],
                       capture_output=True, text=True, check=True)
    m = re.search(r"Available versions: (.*)", p.stdout)
    if not m:
        sys.exit(f"pip index versions vllm gave no list:\n{p.stdout}\n{p.stderr}")
    found = [v.strip() for v in m.group(1).split(",")]
    return sorted((v for v in found if version_key(v) >= version_key(OLDEST)), key=version_key)


# --- 5: normalisation -------------------------------------------------------------
KINDS = {
    "BooleanOptionalAction": "bool",
    "store_true": "store_true",
    "store": "store",
    "append": "append",
    "help": "help",
}


def _kind(action: str) -> str:
    # EnableDisableAction (0.33.0+) subclasses BooleanOptionalAction;
    # StoreBoolean (0.6.x) is its own action taking "true"/"false".
    if action.endswith("(BooleanOptionalAction)"):
        return "bool"
    return KINDS.get(action, "custom")


def _metavar_choices(metavar) -> list | None:
    """vLLM lists the values of ``Literal[...] | str`` fields in the metavar
    (not enforced by argparse): a list, or a "{a,b,c} or ..." string."""
    if isinstance(metavar, list):
        return metavar
    if isinstance(metavar, str):
        m = re.match(r"\{([^{}]*)\}", metavar)
        if m:
            return m.group(1).split(",")
    return None


def _clean_fields(fields: dict | None) -> dict | None:
    """Keep what a user needs about a JSON config's keys."""
    if not fields:
        return None
    out = {}
    for name, f in fields.items():
        if name == "__recursive__":
            out[name] = f
            continue
        e = {"type": f.get("type"), "default": f.get("default")}
        for k in ("help", "choices", "constraints", "dataclass"):
            if f.get(k):
                e[k] = f[k]
        if f.get("init") is False:
            e["init"] = False
        sub = _clean_fields(f.get("fields"))
        if sub:
            e["fields"] = sub
        out[name] = e
    return out


def normalise_options(version: str, entry: str, dump: dict, problems: list[str]) -> list[dict]:
    stores = dump["parser"]["zero_arg_stores"]
    by_dest = dump["parser"]["strings_by_dest"]
    options = []
    for o in dump["options"]:
        strings = sorted(o["option_strings"], key=lambda s: (not s.startswith("--"), s))
        if sorted(by_dest.get(o["dest"], [])) != sorted(strings):
            problems.append(f"{entry} {o['dest']}: strings differ between the schema and the parser")
        kind = _kind(o["action"])
        if o["nargs"] == 0 and kind != "help":
            # Observed by parsing each spelling with the real parser.
            negative = sorted(s for s in strings if stores.get(s) is False)
            if sorted(o["negative_option_strings"] or []) != negative and kind == "bool":
                problems.append(f"{entry} {o['dest']}: negative strings: schema "
                                f"{o['negative_option_strings']} vs parsed {negative}")
        else:
            negative = []
        src = o.get("source") or {}
        note = o.get("deprecation_note")
        if o.get("deprecated_kwarg") and not note:
            note = "deprecated (argparse deprecated=True)"
        js = o.get("json")
        options.append({
            "dest": o["dest"],
            "strings": strings,
            "visible": list(o["visible_option_strings"]),
            "negative": negative,
            "kind": kind,
            "action": o["action"],
            "nargs": o["nargs"],
            "const": o["const"],
            "type": o["type"],
            "choices": o["choices"],
            "metavar_choices": _metavar_choices(o["metavar"]),
            "metavar": o["metavar"] if isinstance(o["metavar"], str) else None,
            "default": o["default"],
            "group": o["group"],
            "deprecated": note,
            "constraints": src.get("constraints") or None,
            "human_readable_int": bool(o["human_readable_int"]),
            "json": None if not js else {
                "kind": js["kind"],
                "dataclass": js["dataclass"].rsplit(".", 1)[-1] if js.get("dataclass") else None,
                "fields": _clean_fields(js.get("fields")),
            },
            "defined_at": o["defined_at"],
            "positional": bool(o["positional"]),
            "help": o["help"],
        })
    n_strings = sum(len(o["strings"]) for o in options)
    if len(options) != dump["num_options"] or n_strings != dump["num_option_strings"]:
        problems.append(f"{entry}: option counts differ from the dump's own totals")
    check = dump.get("help_check", {})
    missing = check.get("missing_from_help") or []
    if missing and "formatter" not in check and len(missing) > check.get("listed_options", 0) // 2:
        # Dumped with vLLM's own format_help, which prints a summary by
        # group in later releases: nothing to compare.
        problems.append(f"{entry}: --help is a summary by group; not compared")
    elif missing:
        problems.append(f"{entry}: --help does not list {missing}")
    return options


def _said(got: dict) -> str | None:
    """The error a probe got, in vLLM's words (the probe's temporary file
    named by its base name)."""
    if "error" not in got:
        return None
    text = got["stderr"][-1].split(": error: ", 1)[-1] if got.get("stderr") else got["error"]
    return re.sub(r"/\S*/(config_\w+\.yaml)", r"\1", text)


def behaviour(entry: str, dump: dict, options: list[dict]) -> dict:
    """What this entry point's parser does with the inputs that changed
    between releases, read from the probes ``dump_release.py`` ran through
    the real parser (each value names the probe it comes from)."""
    pr = dump.get("probes", {})

    def ok(name: str) -> bool:
        return "ok" in pr.get(name, {})

    def got(name: str, dest: str):
        return pr.get(name, {}).get("ok", {}).get(dest)

    facts: dict = {}
    facts["warnings"] = dump.get("warnings") or []
    model_tag = next((o for o in options if o["dest"] == "model_tag"), None)
    if entry == "serve":
        facts["model_positional"] = "required" if model_tag and model_tag["nargs"] is None else "optional"
        # --model after `vllm serve`: moved to the positional (with a
        # warning), rejected while parsing (0.7-0.11.0: FlexibleArgumentParser
        # raises), or rejected by the serve function (0.6.x, whose required
        # positional also fails `--model M` alone).
        alone = pr.get("model_flag", {})
        both = pr.get("model_flag_and_positional", {})
        warned = [w.split(": ", 1)[-1] for w in alone.get("said", []) if "--model" in w]
        if got("model_flag", "model_tag") == "flag-model":
            facts["model_flag"] = {"outcome": "moved", "message": warned[0] if warned else None}
        elif "error" in alone and "model_tag" not in (_said(alone) or ""):
            facts["model_flag"] = {"outcome": "rejected", "message": _said(alone).split(": ", 1)[-1]
                                   if _said(alone).startswith("ValueError") else _said(alone), "stage": "parse"}
        elif not alone and str(both.get("error", "")).startswith("ValueError"):
            # 0.9.0: no --model option to probe alone; the parser raises first
            facts["model_flag"] = {"outcome": "rejected", "message": both["error"].split(": ", 1)[-1],
                                   "stage": "parse"}
        elif str(both.get("dispatch", "")).startswith(("ValueError", "TypeError", "SystemExit")):
            facts["model_flag"] = {"outcome": "rejected", "message": both["dispatch"].split(": ", 1)[-1],
                                   "stage": "serve"}
        else:
            facts["model_flag"] = {"outcome": "flag", "message": None}
        facts["no_model"] = "ok" if ok("no_model") else _said(pr.get("no_model", {}))
    else:
        facts["model_positional"] = None
        facts["model_flag"] = {"outcome": "flag", "message": None}
    facts["abbreviations"] = ok("abbreviation") if "abbreviation" in pr else None
    facts["opt_level"] = ok("opt_level")
    # What -O3 becomes: --optimization-level 3 (0.33.0), a key of the
    # compilation config (0.9-0.32 rewrite "-O3" to "-O.level=3"), or the
    # value of -O itself (0.7-0.8: argparse's "-O" "3", read by from_cli).
    facts["opt_level_becomes"] = None
    if ok("opt_level"):
        cc = got("opt_level", "compilation_config")
        if got("opt_level", "optimization_level") == 3:
            facts["opt_level_becomes"] = "--optimization-level"
        elif isinstance(cc, dict):
            key = next((k for k in ("mode", "level") if cc.get(k) == 3), None)
            facts["opt_level_becomes"] = f"compilation-config.{key}" if key else None
        elif isinstance(cc, str):
            facts["opt_level_becomes"] = "compilation-config"
    # Dotted keys (--x.y v) of JSON-valued options; a release with no JSON
    # option to probe has no such handling (FlexibleArgumentParser of 0.6.x
    # only rewrites underscores).
    if "dotted_key" in pr:
        facts["dotted_keys"] = ok("dotted_key")
        dashed = got("dotted_key_dashes", "hf_overrides")
        facts["dotted_key_dashes"] = (None if not ok("dotted_key_dashes") else
                                      "underscore" if isinstance(dashed, dict) and "probe_key" in dashed else "kept")
    else:
        facts["dotted_keys"] = ok("dotted_dataclass") if "dotted_dataclass" in pr else False
        facts["dotted_key_dashes"] = None
    # --config: where the file's flags go and what a YAML boolean becomes.
    facts["config"] = "inserted" if got("config_int", "port") == 8123 else _said(pr.get("config_int", {}))
    facts["config_equals"] = ("ignored" if ok("config_int_equals") and got("config_int_equals", "port") != 8123
                              else "read" if got("config_int_equals", "port") == 8123
                              else _said(pr.get("config_int_equals", {})))
    facts["config_store_true"] = "flag" if got("config_store_true", "enforce_eager") is True else _said(
        pr.get("config_store_true", {}))
    facts["config_store_true_false"] = "dropped" if ok("config_store_true_false") else _said(
        pr.get("config_store_true_false", {}))
    if "config_bool_optional_false" in pr:
        facts["config_bool_optional_false"] = (
            "dropped" if ok("config_bool_optional_false") and got("config_bool_optional_false", "enable_prefix_caching") is not False
            else "negated" if ok("config_bool_optional_false") else _said(pr["config_bool_optional_false"]))
    if "config_list" in pr:
        # A YAML list: one word per item, or (0.6.3-0.6.4) str() of the list
        # as one word.
        names = got("config_list", "served_model_name")
        facts["config_list"] = ("values" if names == ["name-a", "name-b"]
                                else "one-word" if names == [str(["name-a", "name-b"])]
                                else _said(pr["config_list"]) if "error" in pr["config_list"] else "other")
    # Where the file's flags go: after `serve MODEL` (a list value cannot
    # swallow the model), before the model (0.6.x: `[args[0]] + config_args
    # + args[1:]`, so `served-model-name: [a, b]` takes the model as a
    # third name), at the start of an api_server's argv, or after its first
    # word (0.6.x again, which breaks `--model M --config F`).
    if entry == "serve":
        facts["config_insert"] = "after-model" if ok("config_list") else "before-model"
    else:
        facts["config_insert"] = "start" if ok("config_int") else "after-first-word"
    if entry == "serve":
        facts["config_model_key"] = ("model" if got("config_model_key", "model") == "config-model"
                                     or got("config_model_key", "model_tag") == "config-model"
                                     else _said(pr.get("config_model_key", {})))
    return facts


def normalise(version: str, raw: dict, ready: dict) -> dict:
    prov = raw["provenance"]
    problems: list[str] = []
    if prov["vllm_version"] != version:
        # 0.6.2's wheel says "0.6.1.dev238+ge2c6e0a82": the wheel's own name
        # decides.
        if not str(ready.get("wheel", "")).startswith(f"vllm-{version}-"):
            sys.exit(f"asked for {version}, got vllm {prov['vllm_version']} from {ready.get('wheel')}")
        problems.append(f"the wheel {ready.get('wheel')} reports vllm.__version__ {prov['vllm_version']!r}")
    entries = {}
    for name in ENTRIES:
        e = raw["entry_points"].get(name)
        if e is None:
            continue
        if e.get("error") or "options" not in e:
            problems.append(f"{name}: {e.get('error')}")
            entries[name] = {"exists": True, "error": e.get("error"), "built_by": e["built_by"]}
            continue
        options = normalise_options(version, name, e, problems)
        entries[name] = {"built_by": e["built_by"], "options": options,
                         "facts": behaviour(name, e, options)}
    if "serve" not in entries or "options" not in entries["serve"]:
        sys.exit(f"{version}: no `vllm serve` parser ({problems})")

    arch_raw = raw["architectures"]
    archs = {}
    for name, r in arch_raw["architectures"].items():
        groups = [g for g in r["registry_groups"] if g != "_VLLM_MODELS"]  # the union table
        rec = {
            "module": r["module"],
            "class_name": r["class_name"],
            "registry_groups": groups,
            "models_config_map": r["models_config_map"],
        }
        if "platform_dependent" in r:
            rec["platform_dependent"] = r["platform_dependent"]
        if "error" in r:
            rec["error"] = r["error"]
        else:
            rec["model_info"] = r["model_info"]
            rec["resolved_class"] = r["resolved_class"]
            rec["interfaces_in_mro"] = r["interfaces_in_mro"]
            rec["extras"] = r["extras"]
        archs[name] = rec

    source = {
        "vllm_version": version,
        "commit": prov.get("commit"),
        "wheel": ready.get("wheel"),
        "wheel_sha256": ready.get("sha256"),
        "platform": prov.get("platform"),
        "torch": prov.get("torch"),
        "python": prov.get("python"),
        "cpu_platform_plugin": prov.get("cpu_platform_plugin"),
        "shims": prov.get("shims"),
        "dumper": "tools/knowledge/dump_release.py (parsers built by the release's own entry points; "
                  "options described by vllm_oracle/schema.py, from the vllm-oracle tool)",
        "generator": f"tools/knowledge/generate.py v{GENERATOR_VERSION}",
        "generated": _dt.date.today().isoformat(),
    }
    for p in problems:
        log(f"{version}: CHECK: {p}")
    return {
        "version": version,
        "source": source,
        "entries": entries,
        "model_info_fields": arch_raw["model_info_fields"],
        "architectures": archs,
        "problems": problems,
    }


# --- 5: encoding ---------------------------------------------------------------
def _dumps(obj, sort_keys: bool = False) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False, sort_keys=sort_keys)


INTERNED_ENTRY_KEYS = _flags.INTERNED_ENTRY_KEYS


class Pool:
    """Unique values shared by all releases (help texts, JSON field trees,
    option rows): most are identical from one release to the next.

    A field tree ``{name: entry}`` is stored as ``{name: entry id}``; an
    entry's nested ``fields`` is a tree id and its ``help``/``choices`` are
    item ids, so a config class that changed one field between releases
    shares every other entry."""

    def __init__(self):
        self.items: list = []
        self.ids: dict[str, int] = {}

    def add(self, value) -> int | None:
        if value is None:
            return None
        key = json.dumps(value, sort_keys=True)
        if key not in self.ids:
            self.ids[key] = len(self.items)
            self.items.append(value)
        return self.ids[key]

    def add_tree(self, fields: dict | None) -> int | None:
        if fields is None:
            return None
        tree = {}
        for name, entry in fields.items():
            if isinstance(entry, dict):
                entry = dict(entry)
                if "fields" in entry:
                    entry["fields"] = self.add_tree(entry["fields"])
                # Long help texts and choice lists (e.g. every attention
                # backend) repeat across entries that differ in one detail.
                for key in INTERNED_ENTRY_KEYS:
                    if key in entry:
                        entry[key] = self.add(entry[key])
            tree[name] = self.add(entry)
        return self.add(tree)


def _write(path: Path, text: str, gz: bool = False) -> None:
    data = text.encode()
    if gz:
        # mtime=0 keeps the bytes identical when the content is.
        data = gzip.compress(data, compresslevel=9, mtime=0)
    if path.exists() and path.read_bytes() == data:
        return
    path.write_bytes(data)
    log(f"wrote {path.name} ({len(data):,} bytes)")


def _split_site(site: str | None) -> tuple[str | None, int | None]:
    if not site or ":" not in site:
        return site, None
    f, _, line = site.rpartition(":")
    return (f, int(line)) if line.isdigit() else (site, None)


def encode(records: dict[str, dict], images: dict | None = None) -> None:
    """Write data/ for ``records`` (every release servelint ships)."""
    releases = sorted(records, key=version_key)
    DATA.mkdir(parents=True, exist_ok=True)
    for stale in DATA.glob("release-*.json.gz"):
        if stale.name[len("release-"):-len(".json.gz")] not in records:
            stale.unlink()
            log(f"removed {stale.name}")
    helps, trees = Pool(), Pool()
    generated = {
        "generator": f"tools/knowledge/generate.py v{GENERATOR_VERSION}",
        "generated": max(r["source"].get("generated", "") for r in records.values()),
    }
    arch = encode_architectures(records, releases)

    for v in releases:
        rec = records[v]
        entries = {}
        # A release's option rows are its own (shared by its entry points):
        # reading one release parses its ~300 rows, not every release's.
        rows, files = Pool(), Pool()
        for name, entry in rec["entries"].items():
            if "options" not in entry:
                entries[name] = {"built_by": entry["built_by"], "error": entry.get("error")}
                continue
            refs = []
            for o in entry["options"]:
                js = o["json"]
                row = [o[c] for c in _flags.ROW_COLUMNS]
                row.append(helps.add(o["help"]))
                row.append(None if js is None else [js["kind"], js["dataclass"], trees.add_tree(js["fields"])])
                f, line = _split_site(o["defined_at"])
                refs.append([rows.add(row), files.add(f), line])
            entries[name] = {"built_by": entry["built_by"], "facts": entry["facts"], "options": refs}
        _write(DATA / f"release-{v}.json.gz", _dumps({
            # The encoding is this generator's, whichever wrote the record.
            "source": {**rec["source"], "generator": generated["generator"]},
            "entries": entries,
            "option_columns": list(_flags.ROW_COLUMNS) + ["help", "json"],
            "option_rows": rows.items,
            "option_files": files.items,
            "architectures": arch["releases"][v],
        }), gz=True)
    stale_pool = DATA / "options.json.gz"  # generator v2 shared one row pool
    if stale_pool.exists():
        stale_pool.unlink()
        log(f"removed {stale_pool.name}")

    # Help texts and JSON field trees are shared by every release; each is
    # read when first needed.
    _write(DATA / "help.json.gz", _dumps({
        "source": {**generated, "what": "help texts, referenced by index from the option rows",
                   "releases": releases},
        "texts": helps.items,
    }), gz=True)
    _write(DATA / "fields.json.gz", _dumps({
        "source": {**generated, "what": "fields of JSON-valued options (trees {name: entry id}, "
                   "entries with nested 'fields' as tree ids), referenced by the option rows",
                   "releases": releases},
        "texts": trees.items,
    }), gz=True)
    _write(DATA / "architectures.json.gz", _dumps({
        "source": {**generated, "what": "vllm.model_executor.models.registry._ModelInfo."
                   "from_model_cls(load_model_cls()) for every ModelRegistry key, computed "
                   "in-process on CpuPlatform by tools/knowledge/dump_release.py; each "
                   "release-<version> file lists its row per name; the rows are "
                   "architecture-rows.jsonl, one per line"},
        **{k: x for k, x in arch.items() if k not in ("releases", "rows")},
    }, sort_keys=True), gz=True)  # sorted: re-encoding decoded data gives the same bytes
    # One JSON row per line, uncompressed: a lint reads the one row of its
    # model's architecture, not all of them.
    _write(DATA / "architecture-rows.jsonl",
           "".join(_dumps(row, sort_keys=True) + "\n" for row in arch["rows"]))

    _write(DATA / "history.json.gz", _dumps(encode_history(records, releases, generated)), gz=True)
    if images is not None:
        _write(DATA / "images.json", _dumps(images))
    _write(DATA / "index.json", _dumps({
        "source": generated,
        "releases": releases,
        "newest": releases[-1],
    }))


def encode_history(records: dict[str, dict], releases: list[str], generated: dict) -> dict:
    """Which releases accept each option string, per entry point (bit i =
    releases[i]), and what became of a string a release dropped."""
    out = {
        "source": {**generated, "what": "option string -> bit mask of the releases whose parser of "
                   "that entry point accepts it (bit i = releases[i]); 'changes': what became of a "
                   "string the release after its last one dropped; derived from the release files"},
        "releases": releases,
        "entries": {},
        "changes": {},
    }
    for name in ENTRIES:
        masks: dict[str, int] = {}
        dests: dict[str, int] = {}
        for i, v in enumerate(releases):
            entry = records[v]["entries"].get(name, {})
            for o in entry.get("options", ()):
                for s in o["strings"]:
                    masks[s] = masks.get(s, 0) | (1 << i)
                dests[o["dest"]] = dests.get(o["dest"], 0) | (1 << i)
        if masks:
            out["entries"][name] = {"strings": dict(sorted(masks.items())), "dests": dict(sorted(dests.items()))}
    out["changes"] = dropped_strings(records, releases)
    return out


def _norm_help(text: str | None) -> str:
    return " ".join((text or "").lower().split())


def _words(text: str | None) -> list[str]:
    return re.findall(r"[a-z0-9]+", (text or "").lower())


def _similar(a: str | None, b: str | None) -> float:
    """How alike two help texts are (0-1, by words)."""
    import difflib

    wa, wb = _words(a), _words(b)
    if not wa or not wb:
        return 0.0
    return difflib.SequenceMatcher(None, wa, wb, autojunk=False).ratio()


def _mentioned_flags(text: str | None) -> list[str]:
    return re.findall(r"(--[a-z0-9][a-z0-9-]*(?:\.[a-z0-9_-]+)?)", text or "")


def _mentioned_names(text: str | None) -> list[str]:
    """Backquoted config names a deprecation note points to (`pooler_config`)."""
    return re.findall(r"`([a-z][a-z0-9_]*)`", text or "")


def _is_deprecation(text: str | None) -> bool:
    return "deprecated" in (text or "").lower()


def dropped_strings(records: dict[str, dict], releases: list[str]) -> dict:
    """For each ``vllm serve`` option string that a release dropped (it was
    accepted by the release before), what the tables say became of it:

    * ``renamed``: the next release has an option with the same dest, or
      one whose help text is the dropped option's, or the one its
      deprecation note named (``Use `pooler_config` instead``, ``--x``) and
      that is new in that release;
    * ``moved``: a JSON-valued option of the next release has the dropped
      option as a key: the dest is the option's prefix and the key
      (``speculative_model`` -> ``--speculative-config`` key ``model``), or
      the key itself, or a key whose help text is the dropped option's (as
      any earlier release wrote it, before it said "[DEPRECATED]");
    * ``replaced``: its deprecation note named a flag that already existed
      (``--enable-reasoning`` -> ``--reasoning-parser``);
    * ``removed``: none of these.

    Every answer comes from the releases' tables; a string dropped more than
    once keeps the latest drop."""
    changes: dict[str, dict] = {}
    helps: dict[str, list[str]] = {}  # dest -> its help texts so far, deprecation notes left out
    # A JSON option whose keys a release does not list (a plain json.loads
    # dict before vLLM built options from config dataclasses, e.g.
    # --speculative-config in 0.8.x) takes the keys the next release lists.
    later_fields: dict[tuple[int, str], dict] = {}
    known: dict[str, dict] = {}
    for i in range(len(releases) - 1, -1, -1):
        for o in records[releases[i]]["entries"]["serve"]["options"]:
            fields = (o["json"] or {}).get("fields")
            if fields:
                known[o["dest"]] = fields
            if o["json"] and o["dest"] in known:
                later_fields[(i, o["dest"])] = known[o["dest"]]
    for index, (before, after) in enumerate(zip(releases, releases[1:]), 1):
        old = records[before]["entries"]["serve"]["options"]
        new = records[after]["entries"]["serve"]["options"]
        for o in old:
            if o["help"] and not _is_deprecation(o["help"]) and o["help"] not in helps.setdefault(o["dest"], []):
                helps[o["dest"]].append(o["help"])
        old_dests = {o["dest"] for o in old}
        new_strings = {s for o in new for s in o["strings"]}
        new_by_dest = {o["dest"]: o for o in new}
        new_by_help = {}
        for o in new:
            if o["help"]:
                new_by_help.setdefault(_norm_help(o["help"]), o)
        json_keys = []  # (option, key, key help)
        for o in new:
            fields = (o["json"] or {}).get("fields") or later_fields.get((index, o["dest"])) or {}
            for key, f in fields.items():
                if isinstance(f, dict):
                    json_keys.append((o, key, f.get("help")))
        for o in old:
            gone = [s for s in o["strings"] if s not in new_strings and s.startswith("--")]
            if not gone:
                continue
            change = {"release": after, "last": before, "kind": "removed"}
            dest, own_helps = o["dest"], helps.get(o["dest"], [])
            target, why = None, None
            same = new_by_dest.get(dest)
            if same is not None and not o["positional"]:
                target, why = same, "same dest"
            elif o["help"] and len(_norm_help(o["help"])) > 20 and _norm_help(o["help"]) in new_by_help:
                target, why = new_by_help[_norm_help(o["help"])], "same help text"
            if target is None:
                # what its deprecation note points to
                for f in _mentioned_flags(o["deprecated"]):
                    base = f.split(".")[0]
                    if base in o["strings"]:
                        continue
                    tgt = next((n for n in new if base in n["strings"]), None)
                    if tgt is not None:
                        if tgt["dest"] in old_dests:
                            change.update(kind="replaced", to=_primary(tgt), why="deprecation note")
                        else:
                            target, why = tgt, "deprecation note"
                        break
                for name in _mentioned_names(o["deprecated"]):
                    tgt = new_by_dest.get(name)
                    if tgt is not None and name != dest and change["kind"] == "removed" and target is None:
                        if name in old_dests:
                            change.update(kind="replaced", to=_primary(tgt), why="deprecation note")
                        else:
                            target, why = tgt, "deprecation note"
                        break
            if target is not None:
                change.update(kind="renamed", to=_primary(target), why=why)
            elif change["kind"] == "removed":
                best = None
                for tgt, key, key_help in json_keys:
                    prefix = tgt["dest"][: -len("_config")] if tgt["dest"].endswith("_config") else tgt["dest"]
                    alike = max((_similar(h, key_help) for h in own_helps), default=0.0)
                    if dest == f"{prefix}_{key}":
                        score, reason = 3.0, "the dest is the option's prefix and the key"
                    elif dest == key and alike >= 0.3:
                        score, reason = 2.0 + alike, "the dest is the key"
                    elif alike >= 0.75 and (key in dest or dest.endswith(key)):
                        score, reason = 1.0 + alike, "the key's help text is the flag's"
                    else:
                        continue
                    if best is None or score > best[0]:
                        best = (score, tgt, key, reason)
                if best is not None:
                    change.update(kind="moved", into=_primary(best[1]), key=best[2], why=best[3])
            for s in gone:
                one = dict(change)
                if one["kind"] == "renamed" and s in o["negative"]:
                    # A negative spelling (--no-x) went: it became the new
                    # option's negative spelling, or nothing.
                    negatives = [n for n in (target or {}).get("negative", ()) if n.startswith("--")]
                    if negatives:
                        one["to"] = negatives[0]
                    else:
                        one = {"release": after, "last": before, "kind": "removed"}
                elif one["kind"] == "renamed" and one["to"] == s:
                    one = {"release": after, "last": before, "kind": "removed"}
                changes[s] = one
    # A string that came back later is not "dropped" any more at its end.
    newest = {s for o in records[releases[-1]]["entries"]["serve"]["options"] for s in o["strings"]}
    return {s: c for s, c in sorted(changes.items()) if s not in newest}


def _primary(o: dict) -> str:
    for s in o["visible"] or o["strings"]:
        if s.startswith("--"):
            return s
    return (o["visible"] or o["strings"])[0]


def _most_common(values: list) -> object:
    counts: dict[str, list] = {}
    for v in values:
        counts.setdefault(json.dumps(v, sort_keys=True), [0, v])[0] += 1
    return max(counts.values(), key=lambda c: c[0])[1] if counts else None


def encode_architectures(records: dict[str, dict], releases: list[str]) -> dict:
    """One table of distinct architecture rows shared by all releases.

    A row stores only the ``_ModelInfo`` values (``info``) and interface
    predicates (``extras``) that differ from the most common value of that
    field; each release lists its own field and predicate names.  So when a
    release adds a field that is False for nearly every class, the rows of
    the older releases still match and are stored once."""
    fields: list[str] = []
    extras_names: dict[str, list[str]] = {}
    for v in releases:
        for f in records[v]["model_info_fields"]:
            if f not in fields:
                fields.append(f)
        names = set()
        for a in records[v]["architectures"].values():
            names.update(a.get("extras", {}))
        extras_names[v] = sorted(names)
    every = [a for v in releases for a in records[v]["architectures"].values() if "model_info" in a]
    defaults = {f: _most_common([a["model_info"][f] for a in every if f in a["model_info"]]) for f in fields}
    all_extras = sorted({n for names in extras_names.values() for n in names})
    extras_defaults = {n: _most_common([a["extras"][n] for a in every if n in a["extras"]]) for n in all_extras}

    # Rows are lists in ROW_COLUMNS order; string lists (registry groups,
    # interfaces) are interned in ``lists``; each release lists a row id per
    # entry of ``names`` (None: not registered in that release).
    lists = Pool()
    names = sorted({n for v in releases for n in records[v]["architectures"]})
    rows, row_ids, per_release = [], {}, {}
    for v in releases:
        rec = records[v]
        ids = []
        for name in names:
            a = rec["architectures"].get(name)
            if a is None:
                ids.append(None)
                continue
            a = dict(a)
            if "model_info" in a:
                info = a.pop("model_info")
                a["info"] = {f: x for f, x in info.items() if x != defaults[f]}
                missing = set(rec["model_info_fields"]) - set(info)
                if missing:
                    sys.exit(f"{v} {name}: _ModelInfo lacks {sorted(missing)}")
                extras = a.pop("extras")
                sparse = {n: x for n, x in extras.items() if x != extras_defaults[n]}
                # A predicate that could not be evaluated for this class.
                sparse.update({n: None for n in extras_names[v] if n not in extras})
                a["extras"] = sparse
            for key in ("registry_groups", "interfaces_in_mro"):
                if key in a:
                    a[key] = lists.add(a[key])
            row = [a.get(c) for c in _flags.ARCH_ROW_COLUMNS]
            key = json.dumps(row, sort_keys=True)
            if key not in row_ids:
                row_ids[key] = len(rows)
                rows.append(row)
            ids.append(row_ids[key])
        per_release[v] = {
            "model_info_fields": rec["model_info_fields"],
            "extras": extras_names[v],
            "rows": ids,
        }
    return {
        "fields": fields,
        "defaults": defaults,
        "extras_defaults": extras_defaults,
        "lists": lists.items,
        "row_columns": list(_flags.ARCH_ROW_COLUMNS),
        "rows": rows,
        "names": names,
        "releases": per_release,
    }


# --- what depends on the tables ---------------------------------------------------
def validators(rel) -> None:
    """The lead's validator facts for the release (tools/knowledge/validators.py),
    read from the unpacked release wherever it is."""
    script = HERE / "validators.py"
    if not script.exists():
        return
    log(f"{rel.version}: validators.py")
    subprocess.run([sys.executable, str(script), rel.version, "--releases-dir", str(rel.root.parent),
                    "--out", str(DATA / "validators.json")],
                   check=True, stdout=sys.stderr)


def release_verdicts(rel) -> None:
    """The every-minor conformance suite's verdicts for the release."""
    log(f"{rel.version}: tests/conformance/run_oracle.py releases")
    subprocess.run([sys.executable, str(REPO / "tests" / "conformance" / "run_oracle.py"), "releases",
                    rel.version, "--keep"], check=True, stdout=sys.stderr)


def newest_followups(version: str) -> None:
    """When ``version`` is the newest release: the full conformance suite's
    verdicts (when the vllm-oracle home has the release set up), and the
    goldens a launch that pins nothing depends on."""
    import provision

    ready = provision.ORACLE_HOME / "releases" / version / ".vllm-oracle-ready"
    if ready.exists():
        log(f"{version}: tests/conformance/run_oracle.py {version}")
        subprocess.run([sys.executable, str(REPO / "tests" / "conformance" / "run_oracle.py"), version],
                       check=True, stdout=sys.stderr)
    else:
        log(f"{version}: the full conformance verdicts need the release in the oracle home "
            f"({provision.ORACLE_DIR}/setup.sh {version}, then tests/conformance/run_oracle.py {version})")
    log("regenerating the goldens that depend on the newest release")
    goldens = ["tests/rules/test_rules_golden.py", "tests/fixes/test_fix_golden.py", "tests/test_forms_golden.py"]
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *goldens],
                   cwd=REPO, env={**os.environ, "SERVELINT_UPDATE_GOLDEN": "1"}, stdout=sys.stderr)


def existing_records(skip: set[str]) -> dict[str, dict]:
    """Read back the releases already encoded in data/."""
    out = {}
    for v in _flags.available_releases():
        if v not in skip:
            out[v] = _flags.export_record(v)
    return out


def from_tables(other: Path, version: str) -> dict:
    """A release's record read from another copy of the tables."""
    here = _flags.DATA_DIR
    try:
        _flags.DATA_DIR = str(other)
        _flags.clear_caches()
        return _flags.export_record(version)
    finally:
        _flags.DATA_DIR = here
        _flags.clear_caches()


def merge_images(images: dict | None, other: Path, versions: list[str]) -> dict | None:
    path = other / "images.json"
    if not path.exists():
        return images
    theirs = json.loads(path.read_text())
    if images is None:
        return theirs
    out = dict(images)
    out["releases"] = dict(images.get("releases", {}))
    for v in versions:
        if v in theirs.get("releases", {}):
            out["releases"][v] = theirs["releases"][v]
    return out


def existing_images() -> dict | None:
    path = DATA / "images.json"
    return json.loads(path.read_text()) if path.exists() else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("versions", nargs="*", help="vLLM releases to (re)generate, e.g. 0.34.0")
    ap.add_argument("--all", action="store_true", help=f"every release on the package index from {OLDEST} on")
    ap.add_argument("--missing", action="store_true",
                    help="with --all: only the releases data/ does not have yet")
    ap.add_argument("--rebuild", action="store_true",
                    help="re-encode data/ from the checked-in data only (no vLLM)")
    ap.add_argument("--from-raw", action="store_true",
                    help="use the raw dumps already in the work directory instead of running vLLM")
    ap.add_argument("--keep", action="store_true", help="keep the unpacked releases")
    ap.add_argument("--no-images", action="store_true", help="do not read the releases' Dockerfiles")
    ap.add_argument("--remove", action="append", default=[], metavar="VERSION",
                    help="drop a release from data/ (then re-encode)")
    ap.add_argument("--from-tables", metavar="DIR",
                    help="take VERSIONS from another copy of the tables (a data/ directory) instead of running vLLM")
    ap.add_argument("--tables-only", action="store_true",
                    help="write the tables only: no validator facts, conformance verdicts or goldens")
    args = ap.parse_args(argv)
    versions = list(args.versions)
    if args.all:
        versions = index_versions()
        if args.missing:
            have = set(_flags.available_releases())
            versions = [v for v in versions if v not in have]
    if not versions and not args.rebuild and not args.remove:
        ap.error("name at least one VERSION, or --all, --rebuild or --remove")

    import report

    before = {v: _flags.export_record(v) for v in _flags.available_releases()}
    def then(rel) -> None:
        if not args.tables_only:
            validators(rel)
            release_verdicts(rel)

    fresh = {}
    for v in versions:
        if args.from_tables:
            fresh[v] = from_tables(Path(args.from_tables), v)
            continue
        raw, ready = read_raw(v) if args.from_raw else dump(v, keep=args.keep, then=then)
        fresh[v] = normalise(v, raw, ready)
    records = {v: r for v, r in before.items() if v not in fresh and v not in args.remove}
    records.update(fresh)
    images = existing_images()
    if args.from_tables:
        images = merge_images(images, Path(args.from_tables), list(fresh))
    elif fresh and not args.no_images:
        import images as _images

        images = _images.update(images, sorted(fresh, key=version_key), sorted(records, key=version_key))
    if images is not None:
        # sorted like the releases; a removed release leaves the table too
        images = dict(images)
        images["releases"] = {v: images["releases"][v] for v in sorted(records, key=version_key)
                              if v in images.get("releases", {})}
    encode(records, images)
    _flags.clear_caches()
    _history.clear_cache()
    for v in fresh:
        serve = fresh[v]["entries"]["serve"]["options"]
        s = sum(len(o["strings"]) for o in serve)
        bad = sum(1 for a in fresh[v]["architectures"].values() if "error" in a)
        log(f"{v}: {len(serve)} serve options, {s} option strings, entry points "
            f"{', '.join(fresh[v]['entries'])}, {len(fresh[v]['architectures'])} architectures "
            f"({bad} without facts), {len(fresh[v]['problems'])} check problems")
    newest = max(records, key=version_key)
    if newest in fresh and not (args.tables_only or args.from_raw or args.from_tables):
        newest_followups(newest)
    print(report.render(before, records, sorted(fresh, key=version_key)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
