import os
import subprocess
import sys

import pytest

BIN = os.path.join(os.path.dirname(sys.executable), "servelint")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(*args, cwd=None, stdin=None, env=None, timeout=120):
    """Run the installed servelint CLI as a user would."""
    full_env = dict(os.environ)
    full_env.pop("PYTHONPATH", None)
    if env:
        full_env.update(env)
    exe = [BIN] if os.path.exists(BIN) else [sys.executable, "-m", "servelint"]
    return subprocess.run(exe + list(args), cwd=cwd, input=stdin, capture_output=True, text=True,
                          env=full_env, timeout=timeout)


@pytest.fixture
def cli():
    return run
