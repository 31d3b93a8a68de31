"""A model is resolved once per environment: two launches naming the same
model id under different Hugging Face caches get each their own cache's
architecture, in one `servelint check` run (which keeps resolutions for the
whole run) and in one file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def _hub_model(hub: Path, model_id: str, architecture: str) -> None:
    snapshot = hub / ("models--" + model_id.replace("/", "--")) / "snapshots" / ("a" * 40)
    snapshot.mkdir(parents=True)
    (snapshot / "config.json").write_text(json.dumps({"architectures": [architecture]}))
    (snapshot.parent.parent / "refs").mkdir()
    (snapshot.parent.parent / "refs" / "main").write_text("a" * 40)


def test_same_model_id_under_two_caches(tmp_path: Path) -> None:
    _hub_model(tmp_path / "hub-a", "acme/m", "NemotronHForCausalLM")
    _hub_model(tmp_path / "hub-b", "acme/m", "LlamaForCausalLM")
    script = tmp_path / "two.sh"
    script.write_text(
        "#!/bin/sh\n"
        f"export HF_HUB_CACHE={tmp_path / 'hub-a'}\n"
        "vllm serve acme/m --use-replayssm\n"
        f"export HF_HUB_CACHE={tmp_path / 'hub-b'}\n"
        "vllm serve acme/m --use-replayssm\n"
        f"HF_HUB_CACHE={tmp_path / 'hub-a'} vllm serve acme/m --use-replayssm\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "HUGGINGFACE_"))}
    out = subprocess.run(
        [sys.executable, "-m", "servelint", "check", "--no-config", "--format", "json", "--vllm-version", "0.28.0",
         "--target", "cpu", str(script)],
        capture_output=True, text=True, env=env, timeout=120,
    )
    assert out.returncode in (0, 1), out.stderr
    found = [(d["range"]["start"]["line"], d["message"]) for d in json.loads(out.stdout)["diagnostics"]
             if d["code"] == "SL201"]
    assert found == [(4, "--use-replayssm is only supported for Nemotron-H models "
                         "(got architecture 'LlamaForCausalLM')")]
