#!/usr/bin/env python3
"""Build servelint's bundled model-id -> architecture table.

Input: ``vllm-model-ids.json`` from the shared research folder (vLLM 0.33.0's
supported-models docs plus its test registry, facts only).  Output:
``server/servelint/knowledge/data/models.json``, read by
``servelint.knowledge.models``.  The output is generated; change this script
or its input, never the JSON by hand.

The output is deterministic (no timestamps) so a rebuild from the same input
is byte-identical and ``--check`` can tell whether the table is stale.

    python tools/knowledge/build_model_table.py            # write
    python tools/knowledge/build_model_table.py --check    # exit 1 if stale
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DEFAULT_INPUT = Path("/work/shared/research/vllm-model-ids.json")
OUTPUT = REPO / "server" / "servelint" / "knowledge" / "data" / "models.json"

TEST_REGISTRY = "tests/models/registry.py"

# Facts about ids the input does not list, each copied from a shared
# research note that read it from vLLM's source.  Keep this list short and
# sourced: family inference, not per-id rows, is how unknown ids resolve.
EXTRA_FACTS: list[dict] = [
    {
        "id": "nvidia/NVIDIA-Nemotron-Nano-9B-v2",
        "architecture": "NemotronHForCausalLM",
        "kind": "generative",
        "source": "shared/research/launch-configs.md §6 (vLLM 0.33.0 source: "
        "\"Nemotron-H-8B/47B-Base-8K and Nemotron-Nano-9B-v2 are NemotronHForCausalLM\")",
    },
]


def _doc_label(version: str, doc: str) -> str:
    # "docs/models/supported_models.md" -> "vLLM 0.33.0 docs: supported_models.md";
    # the docs/models/ prefix is common to every page and only adds noise.
    short = doc.removeprefix("docs/models/")
    return f"vLLM {version} docs: {short}"


def _overriding_architectures(entry: dict) -> list[str] | None:
    """Architectures vLLM's own tests force through --hf-overrides.

    When a test passes ``hf_overrides={"architectures": [...]}`` the
    checkpoint's config.json names something vLLM would not pick; a launch
    needs the same override.  Other override keys only shrink test models.
    """
    for test in entry.get("test_registry", []):
        overrides = test.get("hf_overrides")
        if isinstance(overrides, dict) and overrides.get("architectures"):
            return list(overrides["architectures"])
    return None


def _needs_overrides_mark(entry: dict) -> bool:
    # The docs mark such rows with a "^" superscript on the architecture.
    return any("^" in (listing.get("arch_marks") or []) for listing in entry.get("listings", []))


def build(data: dict, input_sha256: str) -> dict:
    src = data["_source"]
    version = src["vllm_version"]
    sources: list[str] = []

    def source_index(label: str) -> int:
        if label not in sources:
            sources.append(label)
        return sources.index(label)

    rows: list[list] = []
    excluded: list[str] = []

    def add(model_id: str, entry: dict, label: str) -> None:
        # A filesystem path in vLLM's test registry is a placeholder for a
        # checkpoint nobody can download, not a Hub id.
        if model_id.startswith(("/", ".", "~")):
            excluded.append(model_id)
            return
        extras: dict = {}
        basis = entry.get("architecture_basis", "")
        if entry.get("candidate_architectures") and "disambiguated" not in basis:
            # The source names several architectures and nothing settled
            # which one this id has: keep the others so rules can tell.
            alt = [a for a in entry["candidate_architectures"] if a != entry["architecture"]]
            if entry["kind"] != "speculative-draft":
                # A draft class the tests load from the same checkpoint
                # (MTP, DSpark) is not what its config.json names.
                drafts = {
                    t["architecture"]
                    for t in entry.get("test_registry", [])
                    if t.get("role") == "speculative_model"
                }
                alt = [a for a in alt if a not in drafts]
            if alt:
                extras["alt"] = alt
        overriding = _overriding_architectures(entry)
        if overriding:
            extras["hf_overrides"] = overriding
        elif _needs_overrides_mark(entry):
            extras["hf_overrides"] = [entry["architecture"]]
        row = [model_id, entry["architecture"], entry["kind"], source_index(label)]
        if extras:
            row.append(extras)
        rows.append(row)

    for model_id, entry in data["models"].items():
        add(model_id, entry, _doc_label(version, entry["listings"][0]["doc"]))
    for model_id, entry in data["models_from_test_registry"].items():
        add(model_id, entry, f"vLLM {version} {TEST_REGISTRY}")
    known = {row[0].lower() for row in rows}
    for fact in EXTRA_FACTS:
        if fact["id"].lower() in known:
            continue  # the input caught up; its row wins
        rows.append([fact["id"], fact["architecture"], fact["kind"], source_index(fact["source"])])

    rows.sort(key=lambda row: row[0].lower())
    kinds: dict[str, int] = {}
    for row in rows:
        kinds[row[2]] = kinds.get(row[2], 0) + 1

    return {
        "_source": {
            "what": "Hugging Face model id -> the architecture vLLM loads, bundled for offline resolution",
            "built_by": "tools/knowledge/build_model_table.py (generated: do not edit by hand)",
            "from": "shared/research/vllm-model-ids.json",
            "from_sha256": input_sha256,
            "from_generated": src.get("generated"),
            "vllm_version": version,
            "vllm_commit": src.get("commit"),
            "origin": src.get("origin"),
            "row": "[id, architecture, kind, index into sources, extras?]",
            "extras": {
                "alt": "other architectures the source names for this id (a docs row listing several, or several test-registry entries); the pick is not confirmed",
                "hf_overrides": "architectures vLLM needs through --hf-overrides for this checkpoint (its config.json names another)",
            },
            "kind": "generative | multimodal | pooling (docs tables); speculative-draft = vLLM's draft-model class from the test registry, not the checkpoint's config.json architecture",
            "excluded": excluded,
            "counts": {"ids": len(rows), "by_kind": dict(sorted(kinds.items()))},
        },
        "sources": sources,
        "models": rows,
    }


def render(table: dict) -> str:
    # One row per line keeps diffs of a regenerated table readable while the
    # file stays compact enough to load in about a millisecond.
    head = {k: v for k, v in table.items() if k != "models"}
    lines = [json.dumps(head, ensure_ascii=False, separators=(",", ":"))[:-1] + ',"models":[']
    rows = [json.dumps(row, ensure_ascii=False, separators=(",", ":")) for row in table["models"]]
    lines.append(",\n".join(rows))
    lines.append("]}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--input", type=Path, default=DEFAULT_INPUT)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument("--check", action="store_true", help="exit 1 when the output is not what the input gives")
    args = parser.parse_args(argv)

    raw = args.input.read_bytes()
    text = render(build(json.loads(raw), hashlib.sha256(raw).hexdigest()))
    if args.check:
        current = args.output.read_text(encoding="utf-8") if args.output.exists() else ""
        if current != text:
            print(f"{args.output} is stale; rerun {Path(__file__).name}", file=sys.stderr)
            return 1
        return 0
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text, encoding="utf-8")
    table = json.loads(text)
    print(f"wrote {args.output}: {table['_source']['counts']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
