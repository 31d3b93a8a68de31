"""`servelint check` as a subprocess: the output contract, exit codes, formats, --fix."""

from __future__ import annotations

import json
import os

SCRIPT = """#!/bin/sh
vllm serve Qwen/Qwen3-8B \\
  --max-modl-len 8192 \\
  --port 8000
"""


def test_json_contract_for_an_unknown_flag(check_json):
    out, path, proc = check_json("launch.sh", SCRIPT, "--vllm-version", "0.33.0")
    assert proc.returncode == 1
    assert out["servelint"]
    [d] = out["diagnostics"]
    assert d["path"].endswith("launch.sh")
    assert d["range"] == {"start": {"line": 2, "character": 2}, "end": {"line": 2, "character": 16}}
    assert d["severity"] == "error"
    assert (d["code"], d["name"], d["category"]) == ("SL101", "unknown-flag", "unknown-flag")
    assert d["flag"] == "--max-modl-len"
    assert d["message"].startswith("unknown flag --max-modl-len for vLLM 0.33.0")
    assert "did you mean --max-model-len" in d["message"]
    assert d["vllm_version"] == "0.33.0"
    # servelint's own record for argparse's "unrecognized arguments".
    assert d["record"] == "sl-unrecognized-arguments"
    first = d["fixes"][0]
    assert first["title"] == "Replace with --max-model-len" and first["safe"] is False
    assert first["edits"] == [
        {"path": d["path"], "range": d["range"], "newText": "--max-model-len"}
    ]


def test_exit_codes(cli, tmp_path):
    bad = tmp_path / "bad.sh"
    bad.write_text(SCRIPT)
    good = tmp_path / "good.sh"
    good.write_text("#!/bin/sh\nvllm serve Qwen/Qwen3-8B --max-model-len 8192\n")
    assert cli("check", "--no-config", str(good)).returncode == 0
    assert cli("check", "--no-config", str(bad)).returncode == 1
    assert cli("check", "--no-config", "--fail-on", "never", str(bad)).returncode == 0
    missing = cli("check", str(tmp_path / "nope.sh"))
    assert missing.returncode == 2
    assert "nope.sh: no such file or directory" in missing.stderr
    usage = cli("check", "--format", "xml", str(good))
    assert usage.returncode == 2


def test_stdin_with_a_file_name(cli):
    proc = cli("check", "--format", "json", "--no-config", "--vllm-version", "0.33.0",
               "--stdin-filename", "run.sh", "-", stdin=SCRIPT)
    out = json.loads(proc.stdout)
    assert [d["path"] for d in out["diagnostics"]] == ["run.sh"]
    assert proc.returncode == 1


def test_text_output_points_at_the_flag(cli, tmp_path):
    p = tmp_path / "launch.sh"
    p.write_text(SCRIPT)
    proc = cli("check", "--no-config", "--vllm-version", "0.33.0", str(p))
    assert f"{p}:3:3: error: unknown flag --max-modl-len" in proc.stdout
    assert "  --max-modl-len 8192 \\" in proc.stdout
    assert "^~~~~~~~~~~~~" in proc.stdout
    assert "Found 1 problem (1 error)." in proc.stdout


def test_sarif_has_one_based_regions_and_rule_help(cli, tmp_path):
    p = tmp_path / "launch.sh"
    p.write_text(SCRIPT)
    proc = cli("check", "--no-config", "--format", "sarif", "--vllm-version", "0.33.0", str(p))
    sarif = json.loads(proc.stdout)
    run = sarif["runs"][0]
    [rule] = run["tool"]["driver"]["rules"]
    assert rule["id"] == "SL101" and rule["name"] == "unknown-flag" and rule["helpUri"].endswith("#unknown-flag")
    [res] = run["results"]
    region = res["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 3, "startColumn": 3, "endLine": 3, "endColumn": 17}
    assert res["level"] == "error"


def test_github_annotations(cli, tmp_path):
    p = tmp_path / "launch.sh"
    p.write_text(SCRIPT)
    proc = cli("check", "--no-config", "--format", "github", "--vllm-version", "0.33.0", str(p))
    line = proc.stdout.strip()
    assert line.startswith("::error file=")
    assert "line=3,col=3,endLine=3,endColumn=17,title=SL101 unknown-flag::unknown flag --max-modl-len" in line


def test_directories_are_walked_without_vendored_trees(cli, tmp_path):
    (tmp_path / "deploy").mkdir()
    (tmp_path / "deploy" / "run.sh").write_text(SCRIPT)
    for skipped in ("node_modules", ".git", "venv"):
        (tmp_path / skipped).mkdir()
        (tmp_path / skipped / "run.sh").write_text(SCRIPT)
    (tmp_path / "venv" / "pyvenv.cfg").write_text("home = /usr\n")
    proc = cli("check", "--no-config", "--format", "json", str(tmp_path))
    paths = [d["path"] for d in json.loads(proc.stdout)["diagnostics"]]
    assert paths == [os.path.join(str(tmp_path), "deploy", "run.sh")]


def test_unrelated_files_yield_nothing(cli, tmp_path):
    (tmp_path / "build.sh").write_text("#!/bin/sh\npip install --upgrade vllm\ncurl --data x http://localhost:8000\npkill -f 'vllm serve'\n# vllm serve old --swap-space 4\necho \"vllm serve m --bogus\"\n")
    (tmp_path / "values.yaml").write_text("replicaCount: 2\nimage:\n  repository: nginx\n  tag: latest\nargs: [--port, '80']\n")
    proc = cli("check", "--no-config", "--format", "json", str(tmp_path))
    assert json.loads(proc.stdout)["diagnostics"] == []
    assert proc.returncode == 0


def test_fix_writes_safe_fixes_only(cli, tmp_path):
    p = tmp_path / "launch.sh"
    p.write_text("#!/bin/sh\nvllm serve Qwen/Qwen3-8B --port 1 --max-model 4096 --port 2 --bogus-flag\n")
    diff = cli("check", "--no-config", "--vllm-version", "0.33.0", "--diff", str(p))
    assert "-vllm serve Qwen/Qwen3-8B --port 1 --max-model 4096 --port 2 --bogus-flag" in diff.stdout
    assert "+vllm serve Qwen/Qwen3-8B --max-model-len 4096 --port 2 --bogus-flag" in diff.stdout
    assert p.read_text().count("--port") == 2  # --diff changes nothing
    fixed = cli("check", "--no-config", "--vllm-version", "0.33.0", "--fix", str(p))
    # The unknown flag has only an unsafe fix: it stays, and is still reported.
    assert p.read_text() == "#!/bin/sh\nvllm serve Qwen/Qwen3-8B --max-model-len 4096 --port 2 --bogus-flag\n"
    assert "unknown flag --bogus-flag" in fixed.stdout
    assert fixed.returncode == 1


def test_suppression_and_unused_suppression(check_json):
    text = (
        "#!/bin/sh\n"
        "# servelint: ignore[unknown-flag] -- tested on a fork that has it\n"
        "vllm serve Qwen/Qwen3-8B \\\n  --max-modl-len 8192\n"
        "vllm serve Qwen/Qwen3-8B --port 1  # servelint: ignore[duplicate-flag]\n"
    )
    out, _, _ = check_json("launch.sh", text, "--vllm-version", "0.33.0")
    [d] = out["diagnostics"]
    assert d["code"] == "SL010" and d["name"] == "unused-suppression"
    assert d["range"]["start"]["line"] == 4


def test_rules_listing_and_docs(cli):
    listing = cli("rules", "--format", "json")
    rules = json.loads(listing.stdout)
    names = {r["name"] for r in rules}
    assert {"unknown-flag", "config-false-dropped", "invalid-value"} <= names
    doc = cli("rule", "config-equals-ignored")
    assert "silently ignored" in doc.stdout and doc.returncode == 0
    assert cli("rule", "no-such-rule").returncode == 2


def test_a_config_file_is_checked_with_the_release_of_the_launch_naming_it(cli, tmp_path):
    (tmp_path / "run.sh").write_text("#!/bin/sh\n# servelint: vllm=0.28.0\nvllm serve --config serve.yaml\n")
    (tmp_path / "serve.yaml").write_text("model: Qwen/Qwen3-8B\ndisable-prefix-caching: true\n")
    proc = cli("check", "--no-config", "--format", "json", str(tmp_path))
    [d] = json.loads(proc.stdout)["diagnostics"]
    assert d["path"].endswith("serve.yaml")
    assert d["vllm_version"] == "0.28.0"
    assert d["code"] == "SL101" and "added in vLLM 0.33.0" in d["message"]
    assert d["range"]["start"] == {"line": 1, "character": 0}
