"""The GitHub Action (action.yml), its step run the way a runner runs it.

The test reads action.yml, fills the step's ``env:`` from the inputs (their
defaults, or the test's values) as GitHub evaluates ``${{ inputs.x }}``, and
runs its ``run:`` script with ``bash --noprofile --norc -eo pipefail`` (what
``shell: bash`` means on a runner) in a workspace with the variables GitHub
sets: GITHUB_WORKSPACE, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, RUNNER_TEMP,
GITHUB_ACTION_PATH (this checkout), GITHUB_ACTIONS, CI, RUNNER_OS.  One test
installs servelint from the action's own code (``pip install``, from the
package index), as the default ``version: action`` does; the others use the
servelint of this venv (``install: false``).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import yaml
from integration_checkout import copy_checkout

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent

BAD = "#!/bin/sh\nvllm serve Qwen/Qwen3-8B \\\n  --max-modl-len 8192\n"
DUPLICATE = "#!/bin/sh\nvllm serve Qwen/Qwen3-8B --max-model-len 8192 --max-model-len 4096\n"


def action() -> dict:
    with open(ROOT / "action.yml", encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def run_action(tmp_path: Path, files: dict[str, str], action_path: Path = ROOT,
               **inputs: str) -> tuple[subprocess.CompletedProcess, dict]:
    spec = action()
    assert spec["runs"]["using"] == "composite"
    [step] = spec["runs"]["steps"]
    assert step["shell"] == "bash"
    unknown = set(inputs) - {k.replace("-", "_") for k in spec["inputs"]}
    assert not unknown, unknown
    values = {k: str(v.get("default", "")) for k, v in spec["inputs"].items()}
    values.update({k.replace("_", "-"): v for k, v in inputs.items()})

    def evaluate(text: str) -> str:
        def one(m: re.Match) -> str:
            return values[m.group(1)]
        out = re.sub(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}", one, text)
        assert "${{" not in out, out
        return out

    workspace = tmp_path / "workspace"
    for name, text in files.items():
        (workspace / name).parent.mkdir(parents=True, exist_ok=True)
        (workspace / name).write_text(text)
    (tmp_path / "runner-temp").mkdir()
    output, summary = tmp_path / "github-output", tmp_path / "step-summary"
    output.touch()
    summary.touch()
    env = {
        "PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", str(tmp_path)),
        "GITHUB_ACTIONS": "true", "CI": "true", "RUNNER_OS": "Linux",
        "GITHUB_WORKSPACE": str(workspace), "GITHUB_OUTPUT": str(output),
        "GITHUB_STEP_SUMMARY": str(summary), "RUNNER_TEMP": str(tmp_path / "runner-temp"),
        "GITHUB_ACTION_PATH": str(action_path),
    }
    env.update({k: evaluate(str(v)) for k, v in step["env"].items()})
    if inputs.get("install") == "false":
        env["PATH"] = f"{VENV_BIN}{os.pathsep}{env['PATH']}"
    # pip's own configuration (the index) is kept.
    for name in ("PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_CONFIG_FILE", "PIP_CONSTRAINT"):
        if name in os.environ:
            env[name] = os.environ[name]
    script = tmp_path / "step.sh"
    script.write_text(evaluate(step["run"]))
    proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=workspace,
                          env=env, capture_output=True, text=True, timeout=900)
    outputs = dict(line.split("=", 1) for line in output.read_text().splitlines() if "=" in line)
    return proc, {"outputs": outputs, "summary": summary.read_text(), "workspace": workspace}


def test_the_action_installs_itself_annotates_and_writes_sarif(tmp_path):
    # The runner checks the action's repository out at GITHUB_ACTION_PATH.
    action_path = copy_checkout(tmp_path / "action")
    proc, got = run_action(tmp_path, {"scripts/launch.sh": BAD, "deploy/ok.sh": "vllm serve m --max-model-len 8\n"},
                           action_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    commands = [line for line in proc.stdout.splitlines() if line.startswith("::")]
    assert commands == [
        f"::group::Install servelint ({action_path})",
        "::endgroup::",
        "::error file=scripts/launch.sh,line=3,col=3,endLine=3,endColumn=17,title=SL101 unknown-flag::"
        "unknown flag --max-modl-len for vLLM 0.33.0; did you mean --max-model-len?",
    ]
    assert got["outputs"] == {"sarif": "servelint.sarif", "findings": "1", "exit-code": "1"}
    sarif = json.loads((got["workspace"] / "servelint.sarif").read_text())
    [result] = sarif["runs"][0]["results"]
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "scripts/launch.sh"
    assert location["region"] == {"startLine": 3, "startColumn": 3, "endLine": 3, "endColumn": 17}
    assert result["ruleId"] == "SL101" and result["level"] == "error"
    assert "| SL101 unknown-flag | error | 1 |" in got["summary"]


def test_inputs_paths_vllm_version_fail_on_and_no_sarif(tmp_path):
    # --disable-prefix-caching exists from vLLM 0.33.0 on.
    files = {"a/run.sh": DUPLICATE, "b/launch.sh": "vllm serve Qwen/Qwen3-8B --disable-prefix-caching\n"}
    # Only a/: the duplicate is a warning, below the default fail-on; no SARIF.
    proc, got = run_action(tmp_path, files, install="false", paths="a", sarif="")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    [line] = [x for x in proc.stdout.splitlines() if x.startswith("::")]
    assert line.startswith("::warning file=a/run.sh,line=2,") and "title=SL104 duplicate-flag::" in line
    assert got["outputs"] == {"sarif": "", "findings": "", "exit-code": "0"}
    assert not (got["workspace"] / "servelint.sarif").exists()
    # Two paths, one per line; fail-on warning; vLLM 0.28.0 for files that name none.
    proc, got = run_action(tmp_path / "2", files, install="false", paths="a\nb/launch.sh", fail_on="warning",
                           vllm_version="0.28.0", sarif="reports/servelint.sarif")
    assert proc.returncode == 1
    assert got["outputs"] == {"sarif": "reports/servelint.sarif", "findings": "2", "exit-code": "1"}
    results = json.loads((got["workspace"] / "reports/servelint.sarif").read_text())["runs"][0]["results"]
    found = sorted((r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], r["ruleId"],
                    r["properties"]["vllmVersion"]) for r in results)
    assert found == [("a/run.sh", "SL104", "0.28.0"), ("b/launch.sh", "SL101", "0.28.0")]


def test_a_bad_input_is_an_error_annotation(tmp_path):
    proc, got = run_action(tmp_path, {"run.sh": BAD}, install="false", fail_on="sometimes")
    assert proc.returncode == 2
    assert proc.stdout.strip() == ("::error title=servelint::fail-on must be error, warning, information, hint "
                                   "or never (got 'sometimes')")
    proc, _ = run_action(tmp_path / "2", {"run.sh": BAD}, install="false", paths="missing.sh")
    assert proc.returncode == 2
    assert "servelint: missing.sh: no such file or directory" in proc.stderr


def test_the_documented_workflow_uses_the_actions_inputs():
    """docs/ci.md's workflow passes only inputs action.yml declares."""
    text = (ROOT / "docs" / "ci.md").read_text()
    [workflow] = re.findall(r"```yaml\n(name: vLLM launch configs\n.*?)```", text, re.S)
    jobs = yaml.safe_load(workflow)["jobs"]
    steps = [s for job in jobs.values() for s in job["steps"]]
    ours = [s for s in steps if str(s.get("uses", "")).startswith("servelint/servelint@")]
    assert ours and all(set(s.get("with", {})) <= set(action()["inputs"]) for s in ours)
    upload = [s for s in steps if str(s.get("uses", "")).startswith("github/codeql-action/upload-sarif@")]
    assert upload and upload[0]["with"]["sarif_file"] == "${{ steps.servelint.outputs.sarif }}"
    assert upload[0]["if"] == "always()"
