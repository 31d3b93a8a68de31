"""`servelint check -j N`: files linted in worker processes give the serial
output byte for byte (stdout, stderr, exit status), for every format and for
--fix / --diff, including the one piece of state carried between files: a
`--config` YAML is checked with the release of the launch that names it."""

from __future__ import annotations

import json
import os
import shutil

import pytest

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples")

K8S = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: late
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.25.0
          args:
            - Qwen/Qwen3-8B
            - --config
            - ../z/late.yaml
"""


def make_tree(root) -> None:
    """~55 files of every form (enough for three workers).  Two `--config` files whose findings depend
    on the release of the launch naming them: serve.yaml (named by a shell
    script, which is linted first) and z/late.yaml (named by a Kubernetes
    manifest, a YAML file linted before it but, with workers, in another
    chunk).  Also a file too large to lint and safe fixes for --fix."""
    (root / "run.sh").write_text("#!/bin/sh\n# servelint: vllm=0.28.0\nvllm serve --config serve.yaml\n")
    (root / "serve.yaml").write_text("model: Qwen/Qwen3-8B\ndisable-prefix-caching: true\n")
    (root / "fix.sh").write_text("#!/bin/sh\nvllm serve Qwen/Qwen3-8B --port 1 --max-model 4096 --port 2 --bogus-flag\n")
    with open(root / "big.sh", "wb") as fh:  # sparse: costs no disk, over the 20 MB limit
        fh.truncate(25 * 1024 * 1024)
    (root / "notes.txt").write_text("not ours\n")
    (root / "a").mkdir()
    (root / "a" / "k8s.yaml").write_text(K8S)
    (root / "z").mkdir()
    (root / "z" / "late.yaml").write_text("max-model-len: 8192\nuse-replayssm: true\n")
    pad = root / "m"
    pad.mkdir()
    for k in range(12):
        for name in sorted(os.listdir(EXAMPLES)):
            stem, ext = os.path.splitext(name)
            shutil.copy(os.path.join(EXAMPLES, name), pad / f"{stem}-{k}{ext}")
        # serve-nemotron.sh names --config=llama.yaml next to it.
        shutil.copy(os.path.join(EXAMPLES, "llama.yaml"), pad / "llama.yaml")


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("jobs")
    make_tree(root)
    return root


def same(cli, cwd, *args, stdin=None):
    """Run with -j 1, -j 2 and -j 3; every run's (status, stdout, stderr) is the serial one."""
    runs = {j: cli("check", "-j", str(j), *args, cwd=cwd, stdin=stdin) for j in (1, 2, 3)}
    serial = runs[1]
    for j, proc in runs.items():
        assert (proc.returncode, proc.stdout, proc.stderr) == (serial.returncode, serial.stdout, serial.stderr), j
    return serial


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_workers_give_the_serial_output(cli, tree, fmt):
    proc = same(cli, tree, "--no-config", "--format", fmt, ".")
    assert proc.returncode == 1
    assert proc.stderr == ""
    if fmt == "text":
        # Both config files were checked with their launch's release.
        assert "serve.yaml:2:1: error: unknown flag disable-prefix-caching (--disable-prefix-caching) for vLLM 0.28.0" in proc.stdout
        assert "./z/late.yaml:2:1: error: unknown flag use-replayssm (--use-replayssm) for vLLM 0.25.0" in proc.stdout
        assert "servelint skips files over" in proc.stdout  # big.sh


def test_bad_paths_and_exit_codes_are_the_serial_ones(cli, tree):
    proc = same(cli, tree, "--no-config", "--format", "json", "nope.sh", ".", "gone/")
    assert proc.returncode == 2
    assert proc.stderr == ("servelint: nope.sh: no such file or directory\n"
                           "servelint: gone/: no such file or directory\n")
    assert same(cli, tree, "--no-config", "--fail-on", "never", ".").returncode == 0
    assert same(cli, tree, "--no-config", "--fail-on", "hint", "--disable", "unknown-flag", ".").returncode == 1


def test_stdin_with_many_files_is_the_serial_output(cli, tree):
    """'-' is read and linted first, in this process; a stdin named like a
    --config file that a launch in the tree names is still linted before it."""
    launch = (tree / "run.sh").read_text()
    proc = same(cli, tree, "--no-config", "--format", "json", "--stdin-filename", "x.sh", "-", ".", stdin=launch)
    found = {(d["path"], d["vllm_version"]) for d in json.loads(proc.stdout)["diagnostics"]}
    assert (str(tree / "serve.yaml"), "0.28.0") in found  # through the launch read from stdin
    config = (tree / "serve.yaml").read_text()
    same(cli, tree, "--no-config", "--stdin-filename", "serve.yaml", "-", ".", stdin=config)


def test_diff_and_fix_are_the_serial_ones(cli, tree, tmp_path):
    diff = same(cli, tree, "--no-config", "--diff", ".")
    assert "+vllm serve Qwen/Qwen3-8B --max-model-len 4096 --port 2 --bogus-flag" in diff.stdout
    outcomes = []
    for j in (1, 2):
        copy = tmp_path / f"j{j}"
        shutil.copytree(tree, copy)
        proc = cli("check", "-j", str(j), "--no-config", "--fix", ".", cwd=copy)
        files = {}
        for base, _, names in os.walk(copy):
            for name in names:
                if name != "big.sh":
                    path = os.path.join(base, name)
                    files[os.path.relpath(path, copy)] = open(path).read()
        # Diagnostics reached through a launch name the config file by its absolute path.
        outcomes.append((proc.returncode, proc.stdout.replace(str(copy), "COPY"), proc.stderr, files))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][3]["fix.sh"] == "#!/bin/sh\nvllm serve Qwen/Qwen3-8B --max-model-len 4096 --port 2 --bogus-flag\n"


def test_one_file_never_imports_multiprocessing(cli, tree):
    env = {"PYTHONPROFILEIMPORTTIME": "1"}
    one = cli("check", "--no-config", "run.sh", cwd=tree, env=env)
    assert " multiprocessing" not in one.stderr and "import time:" in one.stderr
    few = cli("check", "--no-config", "-j", "2", "run.sh", "serve.yaml", "fix.sh", cwd=tree, env=env)
    assert " multiprocessing" not in few.stderr
    many = cli("check", "--no-config", "-j", "2", ".", cwd=tree, env=env)
    assert " multiprocessing" in many.stderr


def test_jobs_must_be_a_positive_number(cli, tree):
    for bad in ("0", "-1", "many"):
        proc = cli("check", "-j", bad, ".", cwd=tree)
        assert proc.returncode == 2 and "--jobs" in proc.stderr


def test_a_config_read_by_a_launch_in_another_chunk_is_relinted_with_the_serial_state(tree, monkeypatch, capsys):
    """White box: the workers' chunks are of two files here, so z/late.yaml
    is linted by a worker that has not seen a/k8s.yaml; this process notices
    (the release it read differs) and lints it again.  Only big.sh (the
    first file, always linted here) and z/late.yaml are linted in this process."""
    from servelint import cli as cli_module

    here = os.getpid()
    linted_here = []
    real = cli_module._lint_path

    def counting(engine, base, args, path):
        if os.getpid() == here:
            linted_here.append(path)
        return real(engine, base, args, path)

    monkeypatch.setattr(cli_module, "_lint_path", counting)
    monkeypatch.chdir(tree)
    assert cli_module.main(["check", "-j", "2", "--no-config", "--format", "json", "."]) == 1
    assert linted_here == ["./big.sh", "./z/late.yaml"]
    assert "for vLLM 0.25.0" in capsys.readouterr().out


def test_project_configs_apply_per_directory_with_workers(cli, tmp_path):
    """The project config is looked up once per directory: each directory
    still gets its own, with or without workers."""
    for sub, version in (("old", "0.28.0"), ("new", "0.33.0"), ("plain", None)):
        d = tmp_path / sub
        d.mkdir()
        if version:
            (d / ".servelint.toml").write_text(f'vllm-version = "{version}"\n')
        for k in range(12):
            (d / f"run-{k}.sh").write_text("#!/bin/sh\nvllm serve Qwen/Qwen3-8B --disable-prefix-caching --max-modl-len 1\n")
    proc = same(cli, tmp_path, "--format", "json", ".")
    versions = {(d["path"].split("/")[1], d["vllm_version"]) for d in json.loads(proc.stdout)["diagnostics"]}
    assert ("old", "0.28.0") in versions and ("new", "0.33.0") in versions
    assert not any(sub == "old" and v != "0.28.0" for sub, v in versions)
