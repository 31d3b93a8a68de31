"""servelint works without a network and never tries to use one.

The CLI and the language server run in subprocesses whose sockets are
disabled (``blocker/sitecustomize.py``): every attempt is refused *and
recorded*, so these tests fail if servelint so much as looks a name up,
even when it would have coped with the refusal.  Model ids resolve from
local files only; a local model's config.json is read only up to its size cap.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import attrs
import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
EXAMPLES = ROOT / "examples"
sys.path.insert(0, str(ROOT / "tests" / "lsp"))
from lsp_harness import CONFIG, Session, position_of  # noqa: E402

# Model ids that are in no local cache: a linter that fetched config.json
# from the Hub would try here.
SCRIPT = (
    "#!/bin/sh\n"
    "vllm serve nvidia/Nemotron-H-8B-Base-8K --use-replayssm --max-modl-len 1\n"
    "vllm serve some-org/never-published-model --trust-remote-code --port 8000\n"
    "HF_HUB_OFFLINE=0 vllm serve state-spaces/mamba-2.7b --use-replayssm\n"
)


def _offline_env(log: Path, hf_home: Path) -> dict:
    path = os.pathsep.join([str(HERE / "blocker"), str(ROOT / "server"), os.environ.get("PYTHONPATH", "")])
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "HUGGINGFACE"))}
    return {**env, "PYTHONPATH": path, "SERVELINT_NETWORK_LOG": str(log), "HF_HOME": str(hf_home)}


def _check(paths, env) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "servelint", "check", "--no-config", "--format", "json", *map(str, paths)],
        capture_output=True, text=True, timeout=180, env=env,
    )


def test_the_blocker_blocks(tmp_path):
    """The guard itself: a process that does try is caught and recorded."""
    log = tmp_path / "net.log"
    env = _offline_env(log, tmp_path / "hf")
    proc = subprocess.run([sys.executable, "-c", "import urllib.request; urllib.request.urlopen('http://example.com')"],
                          capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode != 0 and "blocked by the servelint test suite" in proc.stderr
    assert log.read_text().startswith("create_connection(('example.com', 80),)")


def test_the_cli_gives_its_normal_answer_offline(tmp_path):
    (tmp_path / "run.sh").write_text(SCRIPT)
    paths = [EXAMPLES, tmp_path / "run.sh"]
    log = tmp_path / "net.log"
    online = _check(paths, {k: v for k, v in _offline_env(log, tmp_path / "hf").items()
                            if k != "SERVELINT_NETWORK_LOG"})
    offline = _check(paths, _offline_env(log, tmp_path / "hf"))
    assert Path(f"{log}.active").exists()  # the offline run was blocked
    assert not log.exists(), log.read_text()
    assert offline.returncode == online.returncode == 1, offline.stderr
    assert offline.stderr == ""
    assert json.loads(offline.stdout) == json.loads(online.stdout)
    codes = [d["code"] for d in json.loads(offline.stdout)["diagnostics"]]
    assert "SL101" in codes and len(codes) >= 5  # the examples' problems and this script's were all found


def _offline_server_env() -> dict:
    # pytest-lsp starts the server from the fixture's config, before any
    # per-test fixture runs: the log path is fixed per session.
    log = Path(os.environ.get("TMPDIR", "/tmp")) / f"servelint-net-{os.getpid()}.log"
    return _offline_env(log, Path(os.environ.get("TMPDIR", "/tmp")) / f"servelint-hf-{os.getpid()}")


OFFLINE_SERVER = attrs.evolve(CONFIG, server_env=_offline_server_env())


@pytest_lsp.fixture(config=OFFLINE_SERVER)
async def offline_server(lsp_client: LanguageClient):
    lsp_client.published = []
    lsp_client.protocol.fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = lsp_client.published.append
    lsp_client.protocol.fm.features[types.CLIENT_REGISTER_CAPABILITY] = lambda params: None
    log = Path(OFFLINE_SERVER.server_env["SERVELINT_NETWORK_LOG"])
    yield
    await stop(lsp_client)
    log.unlink(missing_ok=True)
    Path(f"{log}.active").unlink(missing_ok=True)


async def test_the_server_answers_everything_offline(offline_server, tmp_path):
    log = Path(OFFLINE_SERVER.server_env["SERVELINT_NETWORK_LOG"])
    session = Session(offline_server, "visual-studio-code", tmp_path)
    await session.initialize()
    uri = session.open("run.sh", SCRIPT)
    diags = await session.diagnostics(uri)
    assert "SL101" in [d.code for d in diags]
    for needle in ("nvidia/Nemotron-H-8B-Base-8K", "--use-replayssm", "some-org/never-published-model"):
        await asyncio.wait_for(session.hover(uri, *position_of(SCRIPT, needle, 2)), 60)
    await asyncio.wait_for(session.complete(uri, *position_of(SCRIPT, "--port", 2), "-"), 60)
    await session.code_actions(uri, diags[0].range, diags)
    for name in ("docker-compose.yaml", "k8s-deployment.yaml", "llama.yaml"):
        other = session.open(name, (EXAMPLES / name).read_text(), "yaml")
        await session.diagnostics(other)
    assert Path(f"{log}.active").read_text().strip() == str(offline_server._server.pid)
    assert not log.exists(), log.read_text()


def _model_dir(tmp_path: Path, name: str, padding: int) -> Path:
    d = tmp_path / name
    d.mkdir()
    config = {"architectures": ["Mamba2ForCausalLM"], "model_type": "mamba2", "padding": "x" * padding}
    (d / "config.json").write_text(json.dumps(config))
    return d


def test_a_local_model_config_is_read_only_up_to_its_size_cap(tmp_path):
    from servelint.knowledge.models import MAX_CONFIG_BYTES

    _model_dir(tmp_path, "small", 10)
    _model_dir(tmp_path, "huge", MAX_CONFIG_BYTES + 1)
    (tmp_path / "run.sh").write_text("#!/bin/sh\nvllm serve ./small --use-replayssm\nvllm serve ./huge --use-replayssm\n")
    log = tmp_path / "net.log"
    proc = _check([tmp_path / "run.sh"], _offline_env(log, tmp_path / "hf"))
    assert Path(f"{log}.active").exists() and not log.exists()
    by_line = {}
    for d in json.loads(proc.stdout)["diagnostics"]:
        by_line.setdefault(d["range"]["start"]["line"], []).append(d["message"])
    # The small config's architecture is used; the oversized one is not read,
    # so nothing is claimed about that model.
    assert any("Mamba2ForCausalLM" in m for m in by_line.get(1, [])), by_line
    assert not any("Mamba2ForCausalLM" in m for m in by_line.get(2, [])), by_line


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_model_config_that_is_a_pipe_does_not_block(tmp_path):
    d = tmp_path / "piped"
    d.mkdir()
    os.mkfifo(d / "config.json")
    (tmp_path / "run.sh").write_text("#!/bin/sh\nvllm serve ./piped --use-replayssm\n")
    proc = _check([tmp_path / "run.sh"], _offline_env(tmp_path / "net.log", tmp_path / "hf"))
    assert proc.returncode in (0, 1) and "Traceback" not in proc.stderr


async def stop(lsp_client: LanguageClient) -> None:
    if lsp_client.capabilities is not None and lsp_client.error is None:
        await lsp_client.shutdown_session()
    elif lsp_client._server is not None and lsp_client._server.returncode is None:
        # Never initialised (the test failed early): the server would wait for exit forever.
        lsp_client._server.kill()
