"""The pre-commit hooks (.pre-commit-hooks.yaml), run by real pre-commit.

A user's repository names this checkout as a hooks repository, exactly as it
would name servelint's on GitHub: ``repo:`` (here a local git copy of the
working tree, so uncommitted changes are tested too) and ``rev:``.
pre-commit then clones it, builds the hook's environment (``language:
python``: ``pip install`` of the checkout, from the package index) and runs
``pre-commit run --all-files``.  pre-commit comes from PyPI (``make
integration-tools`` installs it into the venv); without it the tests skip.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from integration_checkout import commit_checkout, git

PRE_COMMIT = Path(sys.executable).parent / "pre-commit"

pytestmark = pytest.mark.skipif(not PRE_COMMIT.exists(), reason="pre-commit is not installed (make integration-tools)")

BAD = "#!/bin/sh\nvllm serve Qwen/Qwen3-8B \\\n  --max-modl-len 8192\n"
GOOD = "#!/bin/sh\nvllm serve Qwen/Qwen3-8B --max-model-len 8192\n"


@pytest.fixture(scope="module")
def hooks_repo(tmp_path_factory) -> tuple[Path, str]:
    """This checkout's working tree committed to a repository of its own."""
    return commit_checkout(tmp_path_factory.mktemp("servelint-hooks"))


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory) -> Path:
    # One hook environment for the module's tests (built on first use).
    return tmp_path_factory.mktemp("pre-commit-home")


def user_repo(tmp_path: Path, hooks_repo, hook_ids: list[str], files: dict[str, str]) -> Path:
    path, rev = hooks_repo
    hooks = "".join(f"      - id: {h}\n" for h in hook_ids)
    (tmp_path / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {path}\n    rev: {rev}\n    hooks:\n{hooks}"
    )
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "-A")
    return tmp_path


def run_pre_commit(repo: Path, home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "NO_COLOR": "1"}
    env.pop("PYTHONPATH", None)
    return subprocess.run([str(PRE_COMMIT), "run", "--all-files", "--color", "never"], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=900)


def test_a_bad_launch_fails_the_hook_with_the_finding(tmp_path, hooks_repo, pre_commit_home):
    repo = user_repo(tmp_path, hooks_repo, ["servelint"], {
        "scripts/launch.sh": BAD,
        "README.md": "vllm serve x --not-a-flag\n",  # not a file servelint reads
    })
    proc = run_pre_commit(repo, pre_commit_home)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert any(line.startswith("servelint") and line.endswith("Failed") for line in lines), proc.stdout
    assert "- exit code: 1" in lines
    finding = next(line for line in lines if line.startswith("scripts/launch.sh:"))
    assert finding.startswith("scripts/launch.sh:3:3: error: unknown flag --max-modl-len for vLLM 0.33.0")
    assert finding.endswith("[SL101 unknown-flag] (vLLM 0.33.0)")
    assert not any("README.md" in line for line in lines)


def test_good_files_pass(tmp_path, hooks_repo, pre_commit_home):
    repo = user_repo(tmp_path, hooks_repo, ["servelint"], {
        "launch.sh": GOOD,
        "k8s/deploy.yaml": "apiVersion: v1\nkind: Pod\nmetadata: {name: v}\nspec:\n  containers:\n"
                           "    - name: vllm\n      image: vllm/vllm-openai:v0.28.0\n"
                           "      args: [Qwen/Qwen3-8B, --max-model-len, '8192']\n",
    })
    proc = run_pre_commit(repo, pre_commit_home)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert any(line.startswith("servelint") and line.endswith("Passed") for line in proc.stdout.splitlines())


def test_the_fix_hook_applies_safe_fixes(tmp_path, hooks_repo, pre_commit_home):
    script = "#!/bin/sh\nvllm serve Qwen/Qwen3-8B --max-model-len 8192 --max-model-len 4096\n"
    repo = user_repo(tmp_path, hooks_repo, ["servelint-fix"], {"run.sh": script})
    proc = run_pre_commit(repo, pre_commit_home)
    # pre-commit fails a hook that changed files, so that the user reviews them.
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "- files were modified by this hook" in proc.stdout
    assert (repo / "run.sh").read_text() == "#!/bin/sh\nvllm serve Qwen/Qwen3-8B --max-model-len 4096\n"
    again = run_pre_commit(repo, pre_commit_home)
    assert again.returncode == 0, again.stdout
