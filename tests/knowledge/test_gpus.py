"""The GPU table (knowledge/gpus.py) and the quantization capability table."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from servelint.knowledge import gpus
from servelint.knowledge.quant_capability import min_capability

ROOT = Path(__file__).resolve().parents[2]


def test_every_row_says_where_its_facts_come_from():
    for g in gpus.all_gpus():
        facts = dict(g.sources)
        assert facts.get("memory", "").startswith("https://"), g.id
        if g.vendor == "nvidia":
            assert g.capability is not None, g.id
            assert facts.get("capability", "").startswith("https://"), g.id
        else:
            assert g.capability is None, g.id  # vLLM's CUDA capability rules are NVIDIA's
    data = json.loads((ROOT / "server/servelint/knowledge/data/gpus.json").read_text())
    ids = {g["id"] for g in data["gpus"]}
    for vocab in data["vocabularies"].values():
        for target in (*vocab.get("names", {}).values(), *(p[1] for p in vocab.get("patterns", []))):
            assert set(target) <= ids


@pytest.mark.parametrize("name,vocab,ids,cap", [
    ("NVIDIA-A100-SXM4-80GB", None, ["A100-80GB"], (8, 0)),
    ("Tesla-T4", None, ["T4"], (7, 5)),
    ("NVIDIA-H100-80GB-HBM3", None, ["H100-80GB"], (9, 0)),
    ("NVIDIA-L40S", None, ["L40S"], (8, 9)),
    ("a100", None, ["A100-40GB", "A100-80GB"], (8, 0)),   # a bare family: both
    ("A100", "skypilot", ["A100-40GB"], (8, 0)),          # SkyPilot's A100 is the 40 GB one
    ("A100-80GB", "skypilot", ["A100-80GB"], (8, 0)),
    ("nvidia-tesla-a100", "gke", ["A100-40GB"], (8, 0)),
    ("nvidia-l4", "gke", ["L4"], (8, 9)),
    ("a100", "karpenter", ["A100-40GB", "A100-80GB"], (8, 0)),
    ("g5.12xlarge", "instance-type", ["A10G"], (8, 6)),
    ("p4de.24xlarge", "instance-type", ["A100-80GB"], (8, 0)),
    ("a3-highgpu-8g", "instance-type", ["H100-80GB"], (9, 0)),
    ("Standard_NC24ads_A100_v4", "instance-type", ["A100-80GB"], (8, 0)),
    ("AMD-Instinct-MI300X", None, ["MI300X"], None),
])
def test_names_the_schedulers_use(name, vocab, ids, cap):
    m = gpus.lookup(name, vocab)
    assert [g.id for g in m.gpus] == ids
    assert m.capability() == cap


def test_a_mig_slice_has_its_own_memory_and_unknown_names_match_nothing():
    m = gpus.lookup("NVIDIA-A100-SXM4-80GB-MIG-3g.40gb")
    assert m.memory_gib() == 40 and m.capability() == (8, 0)
    assert not gpus.lookup("nvidia-tesla-t4", "karpenter").known  # another tool's word
    assert not gpus.lookup("a100x").known
    assert not gpus.lookup("NVIDIA-A100-SXM4-96GB").known
    assert not gpus.lookup("").known


def test_memory_is_an_upper_bound_of_what_devices_report():
    # nvidia-smi's memory.total (MiB) on these devices: the table, read as
    # GiB, is never below it (the checks say "does not fit" only then).
    reported = {"A100-80GB": 81920, "H100-80GB": 81559, "L4": 23034, "T4": 15360, "A10G": 23028, "H200": 143771}
    for gpu_id, mib in reported.items():
        assert gpus.by_id(gpu_id).memory_gib * 1024 >= mib, gpu_id


def test_quantization_minimum_capabilities():
    assert min_capability("fp8", "0.33.0").minimum == 75
    assert min_capability("awq", "0.33.0").minimum == 75
    assert min_capability("gptq", "0.33.0").minimum == 60
    assert min_capability("mxfp4", "0.33.0").minimum == 80
    assert min_capability("compressed-tensors", "0.25.0").minimum == 70
    assert min_capability("no-such-method", "0.33.0") is None


@pytest.mark.skipif(not os.path.isdir(os.path.expanduser("~/.cache/vllm-oracle/releases/0.33.0/vllm")),
                    reason="needs the unpacked vLLM releases (shared/tools/vllm-oracle)")
def test_the_quantization_table_is_what_the_releases_say():
    out = subprocess.run([sys.executable, str(ROOT / "tools/knowledge/quant_capability.py"), "--check"],
                         capture_output=True, text=True)
    assert out.returncode == 0, "run tools/knowledge/quant_capability.py"
