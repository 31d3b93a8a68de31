"""Per-architecture ``_ModelInfo`` facts, per release.

Expected values: /work/shared/research/vllm-architectures-0.33.0.json (an
independent extraction for 0.33.0) and vllm-cli-and-oracle.md section 4.4 /
5 (which architectures ``--use-replayssm`` accepts).
"""

from __future__ import annotations

import json
import os

import pytest

from servelint import knowledge

RESEARCH = os.path.join(
    os.path.dirname(__file__), "..", "..", "..", "shared", "research", "vllm-architectures-0.33.0.json"
)

# Model modules that cannot be imported on a CPU-only machine: dots3_note
# needs vLLM's CUDA flash-attention extension, Terratorch the terratorch
# package (not on PyPI's CPU path).  Their facts are absent (``error``).
NOT_IMPORTABLE_0_33_0 = {"Dots3NoteForCausalLM", "Dots3NoteMTPModel", "Terratorch"}


def test_every_release_has_architectures():
    from servelint.knowledge.versions import version_key

    for v in knowledge.RELEASES:
        archs = knowledge.load(v).architectures
        assert "LlamaForCausalLM" in archs
        if version_key(v) < (0, 25, 0):
            continue  # older registries are smaller; releases before _ModelInfo have no facts
        assert len(archs) > 300
        for name in ("LlamaForCausalLM", "NemotronHForCausalLM", "Mamba2ForCausalLM"):
            assert name in archs and archs[name].error is None


def test_replayssm_support():
    for v in knowledge.RELEASES:
        archs = knowledge.load(v).architectures
        nemotron = archs.get("NemotronHForCausalLM")
        mamba2 = archs.get("Mamba2ForCausalLM")
        if knowledge.RELEASES.index(v) < knowledge.RELEASES.index("0.27.0"):
            # the _ModelInfo field does not exist before 0.27.0
            assert "supports_replayssm" not in archs.model_info_fields
            assert nemotron is None or nemotron.supports_replayssm is None
        else:
            assert nemotron.supports_replayssm is True
            assert mamba2.supports_replayssm is False
            assert archs["LlamaForCausalLM"].supports_replayssm is False
    archs = knowledge.load("0.33.0").architectures
    assert sorted(a for a in archs if archs[a].supports_replayssm) == [
        "KimiK3ForConditionalGeneration",
        "KimiLinearForCausalLM",
        "NemotronHForCausalLM",
        "NemotronHPuzzleForCausalLM",
    ]


def test_mamba_family_facts():
    archs = knowledge.load("0.33.0").architectures
    nemotron, mamba2, llama = (
        archs["NemotronHForCausalLM"], archs["Mamba2ForCausalLM"], archs["LlamaForCausalLM"]
    )
    assert nemotron.is_hybrid and not nemotron.is_attention_free and nemotron.has_inner_state
    assert mamba2.is_attention_free and not mamba2.is_hybrid
    assert not llama.is_hybrid and llama.supports_pp and llama.supports_lora
    assert nemotron.models_config_map == "NemotronHForCausalLMConfig"
    assert mamba2.models_config_map == "MambaModelConfig"
    assert "SupportsReplaySSM" in nemotron.interfaces
    assert nemotron.extras["supports_eagle3"] is True
    # research note: 0.33.0's _ModelInfo has no supports_mamba_prefix_caching
    assert "supports_mamba_prefix_caching" not in archs.model_info_fields


def test_arch_facts_api():
    archs = knowledge.load("0.33.0").architectures
    assert archs.get("NoSuchForCausalLM") is None
    f = archs["NemotronHForCausalLM"]
    assert f.name == "NemotronHForCausalLM"
    assert f.as_dict()["architecture"] == "NemotronHForCausalLM"
    assert archs["NemotronHForCausalLM"] is f  # built once
    with pytest.raises(AttributeError):
        f.no_such_field
    assert f.platform_dependent is None


def test_not_importable_architectures_say_so():
    archs = knowledge.load("0.33.0").architectures
    failed = {a for a in archs if archs[a].error}
    assert failed == NOT_IMPORTABLE_0_33_0
    assert archs["Terratorch"].supports_pp is None


def test_platform_dependent_classes_are_marked():
    archs = knowledge.load("0.33.0").architectures
    marked = {a: archs[a].platform_dependent for a in archs if archs[a].platform_dependent}
    assert set(marked) == {
        "DSparkDraftModel", "DeepSeekV4MTPModel", "DeepseekV32ForCausalLM", "DeepseekV32MTPModel",
        "DeepseekV4ForCausalLM", "DeepseekV4ForConditionalGeneration", "GlmMoeDsaForCausalLM",
    }
    assert marked["DeepseekV4ForCausalLM"]["cuda"] == "vllm.models.deepseek_v4.nvidia.model.DeepseekV4ForCausalLM"
    assert archs["DeepseekV4ForCausalLM"].resolved_class == marked["DeepseekV4ForCausalLM"]["cpu"]


@pytest.mark.skipif(not os.path.exists(RESEARCH), reason="shared research notes not beside the repo")
def test_0_33_0_agrees_with_the_research_extraction():
    with open(RESEARCH) as f:
        research = json.load(f)
    archs = knowledge.load("0.33.0").architectures
    assert set(archs) == set(research["architectures"])
    assert archs.model_info_fields == [name for name, _ in research["_source"]["model_info_fields"]]
    compared = 0
    for name, r in research["architectures"].items():
        ours = archs[name]
        if ours.error:
            continue
        if r.get("platform_dependent"):
            # research read the CUDA class from source; we inspected the CPU one
            assert ours.platform_dependent["cuda"] == r["resolved_class"]
            assert ours.resolved_class == r["cpu_platform"]["resolved_class"]
            assert ours.as_dict() == r["cpu_platform"]["model_info"], name
            continue
        assert ours.as_dict() == r["model_info"], name
        assert ours.resolved_class == r["resolved_class"]
        assert sorted(ours.interfaces) == sorted(r["interfaces_in_mro"])
        assert ours.models_config_map == r.get("models_config_map")
        assert sorted(ours.registry_groups) == sorted(r["registry_groups"])
        for key, value in (r.get("extras") or {}).items():
            if key in ours.extras:
                assert ours.extras[key] == value, (name, key)
        compared += 1
    assert compared >= 405
