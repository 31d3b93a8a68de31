"""Print (and optionally save) how many documents each fuzz target ran."""

from __future__ import annotations

import json
import os

from fuzz_support import LONG, STATS


def pytest_terminal_summary(terminalreporter):
    stats = STATS.as_dict()
    if not stats:
        return
    total = sum(s["documents"] for s in stats.values())
    terminalreporter.write_line(
        f"fuzz ({'long' if LONG else 'CI slice'}): {total:,} documents; "
        + ", ".join(f"{t} {s['documents']:,} (slowest {s['slowest_s']}s)" for t, s in stats.items())
    )
    out = os.environ.get("SERVELINT_FUZZ_STATS")
    if out:
        with open(out, "w") as fh:
            json.dump({"long": LONG, "total": total, "targets": stats}, fh, indent=1)
