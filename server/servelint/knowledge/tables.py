"""The per-release tables of ``knowledge/data/`` that a generator in
``tools/knowledge/`` writes as ``{"releases": {version: ...}, ...}``
(``config_names.json``, ``parsers.json``, ``lora_module_fields.json``,
``quant_capability.json``, ``kv_sleep_mode.json``): each file read once, on
first use.  A file that is not there reads as a table without releases (the
generators bootstrap ``data/``), and the rules reading it stay silent."""

from __future__ import annotations

import json
import os
from functools import lru_cache

DATA = os.path.join(os.path.dirname(__file__), "data")


@lru_cache(maxsize=None)
def releases(name: str) -> dict:
    """Release -> entry of the table ``data/<name>``."""
    try:
        with open(os.path.join(DATA, name), encoding="utf-8") as f:
            return json.load(f).get("releases", {})
    except FileNotFoundError:
        return {}
