"""The rule cases: ``cases/<family>.json``, shared by the test and run_oracle.py.

A family file maps a case name to ``{"argv": [...]}`` (what follows ``vllm
serve``; the first word names a model directory of ``../models`` or
``models/`` here), with optional ``"env"`` (variables for vLLM),
``"releases"`` (``"all"``, ``">=0.29.0"``, ``"<=0.32.0"``, ``"0.29.0-0.31.0"``
or a comma list; default all) and ``"expect"``: the rule code the case is
written to trigger, or ``null`` for a twin vLLM accepts.  ``expect`` is the
author's intent; vLLM's verdict is the truth, and the test holds both.

A path inside a case (a draft model in ``--speculative-config``) is
relative to this folder: the oracle runs here, and the test lints each case
as a file of this folder (``../models/llama`` is a shared model).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARED_MODELS = HERE.parent / "models"


def model_dir(name: str) -> Path | None:
    for base in (HERE / "models", SHARED_MODELS):
        if (base / name / "config.json").is_file():
            return base / name
    return None


def load_cases() -> dict[str, dict]:
    out: dict[str, dict] = {}
    for path in sorted((HERE / "cases").glob("*.json")):
        family = path.stem
        for name, case in json.loads(path.read_text()).items():
            out[f"{family}/{name}"] = case if isinstance(case, dict) else {"argv": case}
    return out


def case_releases(case: dict) -> set[str]:
    from servelint.knowledge import validators
    from servelint.knowledge.versions import version_key

    known = list(validators.scanned_releases())
    spec = case.get("releases", "all")
    out: set[str] = set()
    for part in re.split(r"[,\s]+", spec.strip()):
        if not part:
            continue
        if part == "all":
            out.update(known)
        elif part.startswith(">="):
            out.update(r for r in known if version_key(r) >= version_key(part[2:]))
        elif part.startswith("<="):
            out.update(r for r in known if version_key(r) <= version_key(part[2:]))
        elif "-" in part:
            lo, hi = part.split("-", 1)
            out.update(r for r in known if version_key(lo) <= version_key(r) <= version_key(hi))
        else:
            out.add(part)
    return out
