"""A second real client: Emacs eglot (batch mode) runs servelint and applies a code action.

Optional: ``SERVELINT_WITH_EMACS=1 tests/editors/install.sh`` installs
Debian's emacs-nox and elpa-eglot; without them the test is skipped.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from servelint import knowledge

HERE = Path(__file__).resolve().parent
SERVER_DIR = str(HERE.parents[1] / "server")
EMACS = shutil.which("emacs")
EGLOT = glob.glob("/usr/share/emacs/site-lisp/elpa/eglot-*")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(EMACS is None or not EGLOT,
                       reason="emacs with eglot is not installed (SERVELINT_WITH_EMACS=1 tests/editors/install.sh)"),
]

SCRIPT = "#!/bin/sh\nvllm serve facebook/opt-125m \\\n  --max-modl-len 8192 \\\n  --port 8000\n"


def test_quick_fix_through_eglot(tmp_path):
    script = tmp_path / "launch.sh"
    script.write_text(SCRIPT)
    out = tmp_path / "eglot-result.json"
    env = {
        **os.environ,
        "SERVELINT_PY": sys.executable,
        "SERVELINT_SERVER_DIR": SERVER_DIR,
        "SERVELINT_FILE": str(script),
        "SERVELINT_ROOT": str(tmp_path),
        "SERVELINT_OUT": str(out),
        "SERVELINT_ACTION": "Replace with --max-model-len",
        "HOME": str(tmp_path),  # no user init, no ~/.emacs.d writes
    }
    proc = subprocess.run([EMACS, "-Q", "--batch", "-l", str(HERE / "eglot_session.el")],
                          env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    result = json.loads(out.read_text())
    assert proc.returncode == 0, (result, proc.stderr[-2000:])
    assert result["diagnostics"] == [{
        "line": 3, "column": 2,
        "text": f"servelint [SL101]: unknown flag --max-modl-len for vLLM {knowledge.NEWEST}; "
                "did you mean --max-model-len?",
    }]
    assert result["actions"] == [
        "Replace with --max-model-len", "Suppress SL101 for this launch",
    ]
    assert result["cleared"] is True
    assert result["text"] == SCRIPT.replace("--max-modl-len", "--max-model-len")
