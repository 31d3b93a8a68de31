#!/usr/bin/env python3
"""How much of vLLM 0.33.0's catalog of launch-time checks servelint mirrors.

    .venv/bin/python tests/conformance/rules/coverage.py [--warnings] [--list PREFIX]

Reads the catalog (``../shared/research/vllm-rules-0.33.0.jsonl`` beside the
checkout, or ``$VLLM_RULES_CATALOG``) and counts its ``in_scope`` rows (errors,
or warnings with ``--warnings``) that a rule mirrors: a row whose 0.33.0 line
is within three lines of a check a rule names (``VllmCheck``, placed by the
generated ``knowledge/data/validators.json``), a field-range row (``range-*``:
``invalid-value`` checks every JSON key's bounds from the option schema), or a
top-25 row (the top-25 rules, ``tests/conformance/top25/``), or a row a rule
catches at another place (``tests/conformance/cases/catalog.json``: pydantic's
or argparse's own check refuses the value first; each claim held to vLLM's
verdict by ``tests/conformance/test_catalog_claims.py``).  The catalog is a
map, not the truth (NOT-MIRRORED.md lists rows vLLM does not raise as written);
this is the measure quoted in README.md.  ``--list PREFIX``: the rows of the
files starting with PREFIX that nothing mirrors.
"""

from __future__ import annotations

import collections
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent.parent
sys.path.insert(0, str(REPO / "server"))

from servelint.knowledge import validators  # noqa: E402

CATALOG = Path(os.environ.get("VLLM_RULES_CATALOG", REPO.parent / "shared" / "research" / "vllm-rules-0.33.0.jsonl"))
CLAIMS = REPO / "tests" / "conformance" / "cases" / "catalog.json"


def _line(row: dict) -> int:
    try:
        return int(row["location"].rpartition(":")[2].split("-")[0])
    except ValueError:
        return -1


def main(argv: list[str]) -> int:
    severity = "warning" if "--warnings" in argv else "error"
    prefix = argv[argv.index("--list") + 1] if "--list" in argv else None
    rows = [json.loads(line) for line in CATALOG.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = [r for r in rows if r["category"] == "in_scope" and r["severity"] == severity]
    sites: dict[str, set[int]] = collections.defaultdict(set)
    for key in validators._table().get("checks", {}):
        site = validators.site(key, "0.33.0")
        if site is not None:
            sites[site.file].add(site.line)

    claimed = {c["catalog"] for c in json.loads(CLAIMS.read_text(encoding="utf-8"))["cases"].values()
               if isinstance(c, dict) and "catalog" in c}

    def mirrored(r: dict) -> bool:
        where = r["location"].rpartition(":")[0]
        return (any(abs(_line(r) - x) <= 3 for x in sites.get(where, ()))
                or r["id"].startswith("range-") or bool(r.get("top25_rank")) or r["id"] in claimed)

    hit = [r for r in rows if mirrored(r)]
    print(f"{severity} rows in scope: {len(rows)}; mirrored: {len(hit)} ({100 * len(hit) / len(rows):.1f} %)")
    by_file = collections.Counter(r["location"].rpartition(":")[0] for r in rows if not mirrored(r))
    for where, n in by_file.most_common():
        print(f"  {n:4d} not mirrored  {where}")
    if prefix:
        for r in rows:
            if r["location"].startswith(prefix) and not mirrored(r):
                print(" ", r["id"], r["location"], "|", r["message"][:110])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
