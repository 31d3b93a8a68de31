#!/usr/bin/env python3
"""Generate servelint's per-release vLLM knowledge from vLLM itself.

    python tools/knowledge/generate.py 0.34.0          # add (or refresh) a release
    python tools/knowledge/generate.py 0.25.0 ... 0.33.0
    python tools/knowledge/generate.py --rebuild       # re-encode data/ only

For each VERSION it

1. provisions vLLM VERSION on this CPU-only machine with the vllm-oracle
   tool's ``setup.sh`` (idempotent; the tool lives outside this repository,
   see README.md);
2. dumps the ``vllm serve`` option schema with the tool's ``dump_schema.sh``;
3. runs ``dump_release.py`` (ours) inside the same environment for the
   provenance, what each boolean spelling stores, and ``_ModelInfo`` of every
   registered architecture;
4. normalises both dumps into one release record, cross-checks them, and
   re-encodes the data files of *all* releases (the other releases are read
   back from the checked-in data, so only the new release needs vLLM).

Nothing here is imported by servelint at run time; the output in
``server/servelint/knowledge/data/`` is checked in.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import gzip
import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

# Bump when the meaning of a generated field changes (recorded in the data).
GENERATOR_VERSION = "1"

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
DATA = REPO / "server" / "servelint" / "knowledge" / "data"
sys.path.insert(0, str(REPO / "server"))

from servelint.knowledge import flags as _flags  # noqa: E402  (the decoder)

# The shared tree sits beside the repository checkout (``../shared``).
ORACLE_DIR = Path(os.environ.get("VLLM_ORACLE_DIR", REPO.parent / "shared" / "tools" / "vllm-oracle"))
ORACLE_HOME = Path(os.environ.get("VLLM_ORACLE_HOME", Path.home() / ".cache" / "vllm-oracle"))
WORK = Path(os.environ.get("SERVELINT_KNOWLEDGE_WORK", Path.home() / ".cache" / "servelint-knowledge"))


def log(msg: str) -> None:
    print(f"[knowledge] {msg}", file=sys.stderr, flush=True)


def version_key(v: str) -> tuple:
    return tuple(int(x) if x.isdigit() else x for x in re.split(r"[.+]", v))


# --- 1-3: provisioning and dumping ---------------------------------------------
def _oracle_env() -> dict:
    env = dict(os.environ)
    env["VLLM_ORACLE_HOME"] = str(ORACLE_HOME)
    return env


def provision(version: str) -> None:
    log(f"{version}: setup.sh (vllm-oracle; skipped steps are quick)")
    subprocess.run([str(ORACLE_DIR / "setup.sh"), version], check=True, env=_oracle_env(),
                   stdout=sys.stderr)


def _pip_target(requirements: list[str], target: Path) -> Path:
    """Install requirements with --no-deps into a side directory (once)."""
    stamp = target / ".stamp"
    want = hashlib.sha256("\n".join(requirements).encode()).hexdigest()
    if stamp.exists() and stamp.read_text() == want:
        return target
    log(f"installing {', '.join(requirements)} into {target}")
    py = ORACLE_HOME / "venv" / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "--no-deps", "--progress-bar", "off",
                    "--upgrade", "--target", str(target), *requirements],
                   check=True, stdout=sys.stderr)
    stamp.write_text(want)
    return target


def _requirement_lines(path: Path) -> list[str]:
    lines = (line.split("#", 1)[0].strip() for line in path.read_text().splitlines())
    return [line for line in lines if line]


def arch_dep_dirs(version: str) -> list[Path]:
    """Side directories for dump_release.py, highest priority first: this
    release's overrides (arch-overrides.txt), then the model-import deps
    every release needs (arch-requirements.txt)."""
    dirs = []
    overrides = []
    for line in _requirement_lines(HERE / "arch-overrides.txt"):
        bound, requirement = line.split(None, 1)
        if not bound.startswith("<="):
            sys.exit(f"arch-overrides.txt: unsupported range {bound!r}")
        if version_key(version) <= version_key(bound[2:]):
            overrides.append(requirement)
    if overrides:
        key = hashlib.sha256("\n".join(overrides).encode()).hexdigest()[:12]
        dirs.append(_pip_target(overrides, WORK / "archdeps-overrides" / key))
    dirs.append(_pip_target(_requirement_lines(HERE / "arch-requirements.txt"), WORK / "archdeps"))
    return dirs


def dump(version: str, reuse_schema: bool = False) -> tuple[dict, dict, dict]:
    raw = WORK / "raw"
    raw.mkdir(parents=True, exist_ok=True)
    schema_path = raw / f"schema-{version}.json"
    release_path = raw / f"release-{version}.json"
    if reuse_schema and schema_path.exists():
        log(f"{version}: reusing {schema_path}")
    else:
        log(f"{version}: dump_schema.sh")
        subprocess.run([str(ORACLE_DIR / "dump_schema.sh"), version, str(schema_path)],
                       check=True, env=_oracle_env(), stdout=sys.stderr)
    archdeps = ":".join(str(d) for d in arch_dep_dirs(version))
    log(f"{version}: dump_release.py")
    # oracle_env (the tool's lib/env.sh) sets PYTHONPATH and the variables
    # that select the CPU platform for this release; we only append our side
    # directories (PYTHONPATH still precedes the venv's site-packages).
    script = (
        'source "$1/lib/env.sh"; oracle_env "$2"; '
        'export PYTHONPATH="$PYTHONPATH:$3"; cd "$(dirname "$4")"; exec "$VPY" "$4" "$5"'
    )
    subprocess.run(["bash", "-c", script, "bash", str(ORACLE_DIR), version, str(archdeps),
                    str(HERE / "dump_release.py"), str(release_path)],
                   check=True, env=_oracle_env(), stdout=sys.stderr)
    stamp = ORACLE_HOME / "releases" / version / ".vllm-oracle-ready"
    ready = dict(line.split("=", 1) for line in stamp.read_text().splitlines() if "=" in line)
    return json.loads(schema_path.read_text()), json.loads(release_path.read_text()), ready


# --- 4: normalisation ----------------------------------------------------------
KINDS = {
    "BooleanOptionalAction": "bool",
    "store_true": "store_true",
    "store": "store",
    "append": "append",
    "help": "help",
}


def _kind(action: str) -> str:
    # EnableDisableAction (0.33.0+) subclasses BooleanOptionalAction.
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


def normalise(version: str, schema: dict, release: dict, ready: dict) -> dict:
    prov = release["provenance"]
    if prov["vllm_version"] != version or schema["vllm_version"] != version:
        sys.exit(f"asked for {version}, got vllm {prov['vllm_version']} / schema {schema['vllm_version']}")
    stores = release["parser"]["zero_arg_stores"]
    by_dest = release["parser"]["strings_by_dest"]
    problems = []

    options = []
    for o in schema["options"]:
        strings = sorted(o["option_strings"], key=lambda s: (not s.startswith("--"), s))
        if sorted(by_dest.get(o["dest"], [])) != sorted(strings):
            problems.append(f"{o['dest']}: strings differ between dump_schema and dump_release")
        kind = _kind(o["action"])
        if o["nargs"] == 0 and kind != "help":
            # Observed by parsing each spelling with the real parser.
            negative = sorted(s for s in strings if stores.get(s) is False)
            if sorted(o["negative_option_strings"] or []) != negative and kind == "bool":
                problems.append(f"{o['dest']}: negative strings: schema {o['negative_option_strings']} vs parsed {negative}")
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
    if len(options) != schema["num_options"] or n_strings != schema["num_option_strings"]:
        problems.append("option counts differ from the schema's own totals")

    arch_raw = release["architectures"]
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
        "cpu_platform_plugin": ready.get("cpu_platform_plugin") == "yes",
        "shims": prov.get("shims"),
        "schema_dumper": "vllm-oracle dump_schema.sh (" + schema.get("generated_by", "?") + ")",
        "generator": f"tools/knowledge/generate.py v{GENERATOR_VERSION}",
        "generated": _dt.date.today().isoformat(),
    }
    for p in problems:
        log(f"{version}: CHECK: {p}")
    return {
        "version": version,
        "source": source,
        "options": options,
        "model_info_fields": arch_raw["model_info_fields"],
        "architectures": archs,
        "problems": problems,
    }


# --- 5: encoding ---------------------------------------------------------------
def _dumps(obj, sort_keys: bool = False) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False, sort_keys=sort_keys)


INTERNED_ENTRY_KEYS = _flags.INTERNED_ENTRY_KEYS


class Pool:
    """Unique values shared by all releases (help texts, JSON field trees):
    most are identical from one release to the next.

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
    path.write_bytes(data)
    log(f"wrote {path.relative_to(REPO)} ({len(data):,} bytes)")


def encode(records: dict[str, dict]) -> None:
    releases = sorted(records, key=version_key)
    DATA.mkdir(parents=True, exist_ok=True)
    helps, trees = Pool(), Pool()
    generated = {
        "generator": f"tools/knowledge/generate.py v{GENERATOR_VERSION}",
        "generated": _dt.date.today().isoformat(),
    }

    for v in releases:
        rec = records[v]
        rows = []
        for o in rec["options"]:
            js = o["json"]
            row = [o[c] for c in _flags.CORE_COLUMNS]
            row.append(helps.add(o["help"]))
            row.append(None if js is None else [js["kind"], js["dataclass"], trees.add_tree(js["fields"])])
            rows.append(row)
        _write(DATA / f"flags-{v}.json.gz", _dumps({
            "source": rec["source"],
            "columns": list(_flags.CORE_COLUMNS) + ["help", "json"],
            "options": rows,
        }), gz=True)

    # Help texts (hover, docs) and JSON field trees (value checks) are used
    # by different features, so each is read only when first needed.
    _write(DATA / "help.json.gz", _dumps({
        "source": {**generated, "what": "help texts, shared by the flags-<version>.json.gz "
                   "files (referenced by index)", "releases": releases},
        "texts": helps.items,
    }), gz=True)
    _write(DATA / "fields.json.gz", _dumps({
        "source": {**generated, "what": "fields of JSON-valued options (trees {name: entry id}, "
                   "entries with nested 'fields' as tree ids), referenced by the flags files",
                   "releases": releases},
        "texts": trees.items,
    }), gz=True)

    _write(DATA / "architectures.json.gz", _dumps({
        "source": {**generated, "what": "vllm.model_executor.models.registry._ModelInfo."
                   "from_model_cls(load_model_cls()) for every ModelRegistry key, computed "
                   "in-process on CpuPlatform by tools/knowledge/dump_release.py"},
        **encode_architectures(records, releases),
    }, sort_keys=True), gz=True)  # sorted: re-encoding decoded data gives the same bytes

    # Which releases accept each option string (bit i = releases[i]).
    masks: dict[str, int] = {}
    dests: dict[str, int] = {}
    for i, v in enumerate(releases):
        for o in records[v]["options"]:
            for s in o["strings"]:
                masks[s] = masks.get(s, 0) | (1 << i)
            dests[o["dest"]] = dests.get(o["dest"], 0) | (1 << i)
    _write(DATA / "history.json", _dumps({
        "source": {**generated, "what": "option string -> bit mask of the releases whose "
                   "`vllm serve` parser accepts it (bit i = releases[i]); derived from "
                   "the flags-<version>.json.gz files"},
        "releases": releases,
        "strings": dict(sorted(masks.items())),
        "dests": dict(sorted(dests.items())),
    }))

    _write(DATA / "index.json", _dumps({
        "source": generated,
        "releases": releases,
        "newest": releases[-1],
    }))


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
            "source": rec["source"],
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


def existing_records(skip: set[str]) -> dict[str, dict]:
    """Read back the releases already encoded in data/."""
    out = {}
    for v in _flags.available_releases():
        if v not in skip:
            out[v] = _flags.export_record(v)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("versions", nargs="*", help="vLLM releases to (re)generate, e.g. 0.34.0")
    ap.add_argument("--rebuild", action="store_true",
                    help="re-encode data/ from the checked-in data (and raw dumps of VERSIONS) only")
    ap.add_argument("--reuse-schema", action="store_true",
                    help="keep a schema dump already in the work directory (dump_release.py still runs)")
    ap.add_argument("--from-raw", action="store_true",
                    help="use the raw dumps already in the work directory instead of running vLLM")
    args = ap.parse_args()
    if not args.versions and not args.rebuild:
        ap.error("name at least one VERSION, or --rebuild")

    fresh = {}
    for v in args.versions:
        if args.from_raw:
            schema = json.loads((WORK / "raw" / f"schema-{v}.json").read_text())
            release = json.loads((WORK / "raw" / f"release-{v}.json").read_text())
            stamp = ORACLE_HOME / "releases" / v / ".vllm-oracle-ready"
            ready = dict(line.split("=", 1) for line in stamp.read_text().splitlines() if "=" in line)
        else:
            provision(v)
            schema, release, ready = dump(v, reuse_schema=args.reuse_schema)
        fresh[v] = normalise(v, schema, release, ready)
    records = existing_records(set(fresh))
    records.update(fresh)
    encode(records)
    _flags.clear_caches()
    for v in fresh:
        n = len(fresh[v]["options"])
        s = sum(len(o["strings"]) for o in fresh[v]["options"])
        bad = sum(1 for a in fresh[v]["architectures"].values() if "error" in a)
        log(f"{v}: {n} options, {s} option strings, {len(fresh[v]['architectures'])} "
            f"architectures ({bad} not importable on CPU), {len(fresh[v]['problems'])} check problems")


if __name__ == "__main__":
    main()
