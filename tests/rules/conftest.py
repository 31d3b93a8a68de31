"""The conformance harness, importable by the rule tests as
``conformance_lint_harness`` (loaded by path: other test folders have a
module named ``harness`` too)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_NAME = "conformance_lint_harness"
if _NAME not in sys.modules:
    _spec = importlib.util.spec_from_file_location(_NAME, Path(__file__).resolve().parent.parent / "conformance" / "harness.py")
    _module = importlib.util.module_from_spec(_spec)
    sys.modules[_NAME] = _module
    _spec.loader.exec_module(_module)
