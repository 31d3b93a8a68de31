#!/usr/bin/env python3
"""Build servelint's bundled table of Hugging Face config.json files.

Input: ``tools/knowledge/model-configs/*.json``, one file per model id::

    {
      "model": "meta-llama/Meta-Llama-3.1-70B",
      "sources": [
        {"repo": "owner/name", "path": "dir/config.json", "commit": "<40 hex>", "copy": "file"},
        {"repo": "...", "path": "...", "commit": "...", "copy": "python-dict", "at": ["NAME", "key"],
         "agrees": "what this second copy says about the first",
         "edited": ["num_hidden_layers"]}
      ],
      "config": { ...the whole config.json as the first source holds it... }
    }

``sources[0]`` is the copy ``config`` was taken from, whole; later sources
are other public copies checked against it (``agrees`` says how far;
``edited`` names fields the copy's own file shows it changed, such as a test
cutting a model to one layer, which the comparison then leaves aside).
``copy`` tells how the config sits in the file: ``file`` (the file is the
config.json, or with ``at`` a JSON file holding several, ``at`` the keys),
``python-dict`` (a Python literal: ``at`` is a module-level name, then keys),
``json-string`` (a JSON string assigned to the module-level name ``at[0]``),
``text-block`` (a JSON object after the line ``at[0]`` of a text file, such
as a Markdown list of configs) or ``dump`` (a serialised Transformers config: more fields than the file
had, so it only vouches for the fields it shares).

Output: ``server/servelint/knowledge/data/model-configs.json.gz``, read by
``servelint.knowledge.model_configs``.  Deterministic (no timestamps, gzip
mtime 0), so ``--check`` can tell a stale table.

The build refuses a model whose config names an architecture other than
the one the bundled id table (``data/models.json``) gives the same id, and
drops blobs no rule reads (long module lists inside
``quantization_config``), recording each omission in the output.  It
refuses the ids of orgs whose repos vLLM may read in Mistral format
(``MISTRAL_FORMAT_ORGS``): vLLM does not read their config.json.

    python tools/knowledge/build_model_configs.py            # write
    python tools/knowledge/build_model_configs.py --check    # exit 1 if stale
    python tools/knowledge/build_model_configs.py --verify-sources /work/.mirror
        # re-read every source from local git mirrors (<dir>/<owner>+<name>/repo)
        # and compare it with the recorded config; nothing is fetched
"""

from __future__ import annotations

import argparse
import ast
import gzip
import hashlib
import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
INPUT_DIR = Path(__file__).resolve().parent / "model-configs"
OUTPUT = REPO / "server" / "servelint" / "knowledge" / "data" / "model-configs.json.gz"
ID_TABLE = REPO / "server" / "servelint" / "knowledge" / "data" / "models.json"

COPY_KINDS = ("file", "python-dict", "json-string", "text-block", "dump")
_HUB_ID = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
_COMMIT = re.compile(r"^[0-9a-f]{40}$")

# Fields a second copy may differ on without casting doubt on the first:
# token ids and bookkeeping no rule or estimate reads.  Any other difference
# keeps the model out (the task's rule: disagreeing copies are not bundled).
IRRELEVANT = frozenset(
    {"_name_or_path", "_commit_hash", "transformers_version", "bos_token_id", "eos_token_id",
     "pad_token_id", "initializer_range", "use_cache", "auto_map"}
)

# Inside quantization_config: per-module lists and maps.  They run to tens of
# KB in FP8/NVFP4 checkpoints (every layer named), and servelint reads the
# scheme (quant_method, bits, block size), never which modules are skipped.
_BLOB_KEYS = frozenset({"modules_to_not_convert", "ignore", "exclude_modules", "quantized_layers", "ignored_layers"})
_BLOB_BYTES = 1024


# Orgs whose repos vLLM may read in Mistral format: with config_format
# "auto", a repo holding consolidated*.safetensors and params.json is read
# from params.json, not config.json (get_config, is_mistral_model_repo:
# vllm/transformers_utils/config.py, 0.25.0 :668 ... 0.33.0 :893), and
# params.json gives other values (max_position_embeddings 128000 when it has
# no max_seq_len: vllm/transformers_utils/configs/mistral.py, 0.33.0 :162).
# Mistral AI publishes its checkpoints that way; which repos hold those
# files is not in a config.json, so none of that org's are bundled.
MISTRAL_FORMAT_ORGS = frozenset({"mistralai"})


class InputError(Exception):
    pass


# --------------------------------------------------------------------------
# Reading the source list
# --------------------------------------------------------------------------


def load_inputs(directory: Path) -> list[dict]:
    entries = []
    seen: dict[str, Path] = {}
    for path in sorted(directory.glob("*.json")):
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise InputError(f"{path.name}: not JSON ({exc})") from None
        check_entry(entry, path.name)
        expected = entry["model"].replace("/", "--") + ".json"
        if path.name != expected:
            raise InputError(f"{path.name}: name it {expected} (the model id, '/' as '--')")
        key = entry["model"].lower()
        if key in seen:
            raise InputError(f"{path.name}: {entry['model']} is also in {seen[key].name}")
        seen[key] = path
        entries.append(entry)
    return entries


def check_entry(entry: Any, where: str) -> None:
    if not isinstance(entry, dict) or set(entry) - {"model", "sources", "config", "note"}:
        raise InputError(f"{where}: expected the keys model, sources, config (and note)")
    model = entry.get("model")
    if not isinstance(model, str) or not _HUB_ID.match(model):
        raise InputError(f"{where}: model must be a Hub id org/name, not {model!r}")
    if model.split("/")[0].lower() in MISTRAL_FORMAT_ORGS:
        raise InputError(f"{where}: vLLM may read {model} from params.json (Mistral format), not config.json")
    sources = entry.get("sources")
    if not isinstance(sources, list) or not sources:
        raise InputError(f"{where}: sources must list at least the copy the config came from")
    for i, src in enumerate(sources):
        if not isinstance(src, dict):
            raise InputError(f"{where}: sources[{i}] is not an object")
        for key in ("repo", "path", "commit", "copy"):
            if not isinstance(src.get(key), str) or not src[key]:
                raise InputError(f"{where}: sources[{i}].{key} is missing")
        if not _HUB_ID.match(src["repo"]):
            raise InputError(f"{where}: sources[{i}].repo must be owner/name")
        if not _COMMIT.match(src["commit"]):
            raise InputError(f"{where}: sources[{i}].commit must be a full 40-hex commit id")
        if src["copy"] not in COPY_KINDS:
            raise InputError(f"{where}: sources[{i}].copy must be one of {', '.join(COPY_KINDS)}")
        at = src.get("at")
        if at is not None and not (isinstance(at, list) and at and all(isinstance(k, str) and k for k in at)):
            raise InputError(f"{where}: sources[{i}].at must be a list of names/keys")
        if src["copy"] in ("python-dict", "json-string", "text-block") and not at:
            raise InputError(f"{where}: sources[{i}] is a {src['copy']} copy: say where in the file (at)")
        if i == 0 and src["copy"] == "dump":
            raise InputError(f"{where}: the first source must hold the config.json itself, not a dump")
        if i > 0 and not src.get("agrees"):
            raise InputError(f"{where}: sources[{i}] must say how it agrees with the first copy (agrees)")
        edited = src.get("edited", [])
        if not (isinstance(edited, list) and all(isinstance(k, str) for k in edited)) or (i == 0 and edited):
            raise InputError(f"{where}: sources[{i}].edited must list field names, and only for a later copy")
        if set(src) - {"repo", "path", "commit", "copy", "at", "agrees", "edited", "note"}:
            raise InputError(f"{where}: sources[{i}] has unknown keys {sorted(set(src) - {'repo', 'path', 'commit', 'copy', 'at', 'agrees', 'edited', 'note'})}")
    config = entry.get("config")
    if not isinstance(config, dict):
        raise InputError(f"{where}: config must be the config.json object")
    archs = config.get("architectures")
    if not (isinstance(archs, list) and archs and all(isinstance(a, str) and a for a in archs)):
        raise InputError(f"{where}: config has no usable architectures list")


# --------------------------------------------------------------------------
# Building
# --------------------------------------------------------------------------


def source_label(src: dict) -> str:
    label = f"{src['repo']}@{src['commit'][:12]}:{src['path']}"
    if src.get("at"):
        name, *keys = src["at"]
        label += " " + name + "".join(f"[{json.dumps(k)}]" for k in keys)
    return label


def strip_blobs(config: dict) -> tuple[dict, list[str]]:
    """The config without per-module lists in its quantization_config(s)."""
    omitted: list[str] = []

    def strip(q: dict, where: str) -> dict:
        out = {}
        for key, value in q.items():
            size = len(json.dumps(value, separators=(",", ":")))
            if key in _BLOB_KEYS and size > _BLOB_BYTES:
                n = len(value) if isinstance(value, (list, dict)) else 1
                omitted.append(f"{where}.{key} ({n} entries, {size} bytes)")
                continue
            out[key] = value
        return out

    out = dict(config)
    if isinstance(out.get("quantization_config"), dict):
        out["quantization_config"] = strip(out["quantization_config"], "quantization_config")
    text = out.get("text_config")
    if isinstance(text, dict) and isinstance(text.get("quantization_config"), dict):
        out["text_config"] = dict(text, quantization_config=strip(text["quantization_config"], "text_config.quantization_config"))
    return out, omitted


def id_table_architectures(path: Path = ID_TABLE) -> dict[str, tuple[str, tuple[str, ...]]]:
    """id (lower case) -> (architecture, alternatives) from the bundled id table."""
    data = json.loads(path.read_text(encoding="utf-8"))
    out = {}
    for row in data["models"]:
        model_id, arch, kind = row[0], row[1], row[2]
        if kind == "speculative-draft":
            continue
        extras = row[4] if len(row) > 4 else {}
        out[model_id.lower()] = (arch, tuple(extras.get("alt", ())))
    return out


def build(entries: list[dict], id_table: dict[str, tuple[str, tuple[str, ...]]], input_sha256: str) -> dict:
    sources: list[str] = []
    index: dict[str, int] = {}
    rows = []
    omissions = 0
    for entry in sorted(entries, key=lambda e: e["model"].lower()):
        arch = entry["config"]["architectures"][0]
        known = id_table.get(entry["model"].lower())
        if known is not None and arch != known[0] and arch not in known[1]:
            raise InputError(
                f"{entry['model']}: its config.json names {arch}, the id table {known[0]}; "
                "one of them is wrong, so the config is not bundled"
            )
        refs = []
        for src in entry["sources"]:
            label = source_label(src)
            if label not in index:
                index[label] = len(sources)
                sources.append(label)
            refs.append(index[label])
        config, omitted = strip_blobs(entry["config"])
        omissions += len(omitted)
        row: list = [entry["model"], refs, config]
        if omitted:
            row.append(omitted)
        rows.append(row)
    return {
        "_source": {
            "what": "config.json of Hugging Face model ids, copied from public repositories that vendor them",
            "built_by": "tools/knowledge/build_model_configs.py (generated: do not edit by hand)",
            "from": "tools/knowledge/model-configs/*.json (one file per model, each naming its sources)",
            "from_sha256": input_sha256,
            "layout": "gzip of: this object (with index: lower-case id -> [start, end] byte offsets of its row after this line), a newline, one row per line",
            "row": "[id, [indexes into sources: the copy the config is from, then copies that agree], config, omitted?]",
            "omitted": "fields of quantization_config left out (per-module lists no rule reads); absent means absent otherwise",
            "counts": {"models": len(rows), "sources": len(sources), "omitted_fields": omissions},
        },
        "sources": sources,
        "models": rows,
    }


def render(table: dict) -> bytes:
    """The gzipped file: a first line holding everything but the rows, with
    an index (lower-case id -> [start, end] byte offsets of its row in the
    rest), then one row per line.  A lookup parses the first line and the
    one row it needs, not the whole table."""
    rows = [json.dumps(row, ensure_ascii=False, separators=(",", ":")).encode("utf-8") for row in table["models"]]
    index: dict[str, list[int]] = {}
    offset = 0
    for row, raw in zip(table["models"], rows):
        index[row[0].lower()] = [offset, offset + len(raw)]
        offset += len(raw) + 1
    head = {k: v for k, v in table.items() if k != "models"}
    head["index"] = index
    raw = json.dumps(head, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n" + b"\n".join(rows) + b"\n"
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", compresslevel=9, mtime=0) as fh:
        fh.write(raw)
    return buf.getvalue()


def read_table(data: bytes) -> dict:
    """``render``'s output back as the table ``build`` returned."""
    text = gzip.decompress(data)
    head_end = text.index(b"\n")
    head = json.loads(text[:head_end])
    body = text[head_end + 1:]
    index = head.pop("index")
    head["models"] = [json.loads(body[start:end]) for start, end in index.values()]
    return head


def inputs_sha256(directory: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(directory.glob("*.json")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


# --------------------------------------------------------------------------
# Re-reading the sources from local mirrors
# --------------------------------------------------------------------------


def _flat(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict) and value:
        out: dict[str, Any] = {}
        for key, item in value.items():
            out.update(_flat(item, f"{prefix}{key}."))
        return out
    return {prefix[:-1]: value}


def compare(first: dict, other: dict) -> tuple[list[str], list[str], list[str]]:
    """(fields that differ, fields only in first, fields only in other), dotted."""
    a, b = _flat(first), _flat(other)
    differ = sorted(k for k in a.keys() & b.keys() if a[k] != b[k])
    return differ, sorted(a.keys() - b.keys()), sorted(b.keys() - a.keys())


def relevant(fields: list[str]) -> list[str]:
    return [f for f in fields if f.split(".", 1)[0] not in IRRELEVANT]


def extract(text: str, src: dict) -> dict:
    """The config a source holds, read the way ``copy`` says."""
    kind, at = src["copy"], src.get("at")
    if kind == "python-dict":
        return _python_value(text, at)
    if kind == "json-string":
        return json.loads(_python_value(text, at))
    if kind == "text-block":
        lines = text.split("\n")
        found = [i for i, line in enumerate(lines) if line.strip() == at[0]]
        if len(found) != 1:
            raise KeyError(f"{len(found)} lines read {at[0]!r}")
        rest = "\n".join(lines[found[0] + 1:])
        return json.JSONDecoder().raw_decode(rest[rest.index("{"):])[0]
    value: Any = json.loads(text)  # a file or a dump; ``at`` picks one of several
    for key in at or ():
        value = value[key]
    return value


def _python_value(text: str, at: list[str]) -> Any:
    name, *keys = at
    tree = ast.parse(text)
    node = None
    for stmt in tree.body:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(stmt, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            node = stmt.value
    if node is None:
        raise KeyError(f"no module-level {name}")
    value = ast.literal_eval(node)
    for key in keys:
        value = value[key]
    return value


def verify_sources(entries: list[dict], mirrors: Path) -> int:
    problems = unchecked = checked = 0
    for entry in entries:
        first = entry["config"]
        for i, src in enumerate(entry["sources"]):
            git_dir = mirrors / src["repo"].replace("/", "+") / "repo"
            if not git_dir.exists():
                unchecked += 1
                continue
            try:
                text = subprocess.run(["git", "-C", str(git_dir), "show", f"{src['commit']}:{src['path']}"],
                                      capture_output=True, check=True).stdout.decode("utf-8")
                found = extract(text, src)
            except (subprocess.CalledProcessError, KeyError, ValueError, SyntaxError) as exc:
                print(f"{entry['model']}: sources[{i}] {source_label(src)}: cannot read it ({exc})")
                problems += 1
                continue
            checked += 1
            differ, only_first, only_other = compare(first, found)
            if i == 0 and (differ or only_first or only_other):
                print(f"{entry['model']}: the recorded config is not sources[0]: differs on {differ + only_first + only_other}")
                problems += 1
            elif i > 0 and [f for f in relevant(differ) if f not in src.get("edited", ())]:
                print(f"{entry['model']}: sources[{i}] disagrees on {relevant(differ)}")
                problems += 1
    print(f"verified {checked} source copies against their mirrors; {unchecked} not mirrored here; {problems} problems")
    return 1 if problems else 0


# --------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--input", type=Path, default=INPUT_DIR)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument("--check", action="store_true", help="exit 1 when the output is not what the inputs give")
    parser.add_argument("--verify-sources", type=Path, metavar="MIRRORS",
                        help="re-read each source from git mirrors under MIRRORS and compare")
    args = parser.parse_args(argv)
    try:
        entries = load_inputs(args.input)
        if args.verify_sources:
            return verify_sources(entries, args.verify_sources)
        data = render(build(entries, id_table_architectures(), inputs_sha256(args.input)))
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.check:
        current = args.output.read_bytes() if args.output.exists() else b""
        if current != data:
            print(f"{args.output} is stale; rerun {Path(__file__).name}", file=sys.stderr)
            return 1
        return 0
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_bytes(data)
    counts = read_table(data)["_source"]["counts"]
    print(f"wrote {args.output} ({len(data)} bytes gzipped): {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
