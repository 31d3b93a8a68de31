import json
import os
import subprocess
import sys

import pytest

BIN = os.path.join(os.path.dirname(sys.executable), "servelint")


def run(*args, cwd=None, stdin=None, env=None):
    """Run the installed servelint CLI as a user would."""
    full_env = dict(os.environ)
    full_env.pop("PYTHONPATH", None)
    if env:
        full_env.update(env)
    exe = [BIN] if os.path.exists(BIN) else [sys.executable, "-m", "servelint"]
    return subprocess.run(
        exe + list(args), cwd=cwd, input=stdin, capture_output=True, text=True, env=full_env, timeout=120
    )


@pytest.fixture
def cli():
    return run


@pytest.fixture
def check_json(tmp_path):
    def _check(name: str, text: str, *extra):
        path = tmp_path / name
        path.write_text(text)
        proc = run("check", "--format", "json", "--no-config", *extra, str(path), cwd=tmp_path)
        assert proc.returncode in (0, 1), proc.stderr
        return json.loads(proc.stdout), path, proc

    return _check
