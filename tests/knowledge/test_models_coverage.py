"""How many real-world model ids resolve, and none wrongly.

The ids come from the launch-file survey (shared/research/launch-configs.md),
from what the oracle's bundled models are modelled on, and from the common
families servelint's rules care about.  The expected architecture is the
checkpoint's config.json ``architectures[0]`` as published; None means "not
sure", and such an id only counts for coverage.

Run as a script for the numbers that go into knowledge/MODELS.md:

    PYTHONPATH=server python tests/knowledge/test_models_coverage.py
"""

from __future__ import annotations

import sys
from pathlib import Path

try:
    from servelint.knowledge.models import resolve_model
except ImportError:  # running from a checkout without an install
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "server"))
    from servelint.knowledge.models import resolve_model

SURVEY = "launch-configs.md"
ORACLE = "oracle models"
COMMON = "common families"

LLAMA = "LlamaForCausalLM"
QWEN2 = "Qwen2ForCausalLM"
QWEN3 = "Qwen3ForCausalLM"
QWEN3_MOE = "Qwen3MoeForCausalLM"
MISTRAL = "MistralForCausalLM"
DSV3 = "DeepseekV3ForCausalLM"
GEMMA3_MM = "Gemma3ForConditionalGeneration"
NEMOTRON_H = "NemotronHForCausalLM"
GRANITE_HYBRID = "GraniteMoeHybridForCausalLM"

# (id, expected architecture or None when unsure, where it comes from)
CASES: list[tuple[str, str | None, str]] = [
    # Named in the launch-file survey (literally, or by the file's name).
    ("facebook/opt-125m", "OPTForCausalLM", SURVEY),
    ("Qwen/Qwen2.5-1.5B-Instruct", QWEN2, SURVEY),
    ("Qwen/Qwen2.5-7B-Instruct", QWEN2, SURVEY),
    ("meta-llama/Meta-Llama-3.1-8B-Instruct", LLAMA, SURVEY),
    ("meta-llama/Llama-3.2-1B-Instruct", LLAMA, SURVEY),
    ("NousResearch/Meta-Llama-3-8B-Instruct", LLAMA, SURVEY),
    ("Qwen/Qwen3-14B", QWEN3, SURVEY),
    ("Qwen/Qwen3-0.6B", QWEN3, SURVEY),
    ("google/gemma-3-27b-it", GEMMA3_MM, SURVEY),
    ("Qwen/QwQ-32B", QWEN2, SURVEY),
    ("openai/gpt-oss-20b", "GptOssForCausalLM", SURVEY),
    ("openai/gpt-oss-120b", "GptOssForCausalLM", SURVEY),
    ("Qwen/Qwen3.5-9B", "Qwen3_5ForConditionalGeneration", SURVEY),
    ("deepseek-ai/DeepSeek-R1", DSV3, SURVEY),
    ("neuralmagic/Meta-Llama-3.1-70B-Instruct-FP8", LLAMA, SURVEY),
    ("Qwen/Qwen2-VL-7B-Instruct", "Qwen2VLForConditionalGeneration", SURVEY),
    ("codellama/CodeLlama-13b-Instruct-hf", LLAMA, SURVEY),
    ("LiquidAI/LFM2-1.2B", "Lfm2ForCausalLM", SURVEY),
    ("nvidia/Nemotron-H-8B-Base-8K", NEMOTRON_H, SURVEY),
    ("nvidia/Nemotron-H-47B-Base-8K", NEMOTRON_H, SURVEY),
    ("nvidia/NVIDIA-Nemotron-Nano-9B-v2", NEMOTRON_H, SURVEY),
    # What the oracle's bundled models are modelled on.
    ("meta-llama/Llama-3.1-8B-Instruct", LLAMA, ORACLE),
    ("Qwen/Qwen3-8B", QWEN3, ORACLE),
    ("mistralai/Mistral-7B-Instruct-v0.3", MISTRAL, ORACLE),
    ("mistralai/Mixtral-8x7B-Instruct-v0.1", "MixtralForCausalLM", ORACLE),
    ("deepseek-ai/DeepSeek-V3", DSV3, ORACLE),
    ("mistralai/Mamba-Codestral-7B-v0.1", "Mamba2ForCausalLM", ORACLE),
    ("tiiuae/Falcon-H1-7B-Instruct", "FalconH1ForCausalLM", ORACLE),
    ("ai21labs/AI21-Jamba-Mini-1.5", "JambaForCausalLM", ORACLE),
    ("google/gemma-3-1b-it", "Gemma3ForCausalLM", ORACLE),
    # Llama 2 / 3.x
    ("meta-llama/Llama-2-7b-chat-hf", LLAMA, COMMON),
    ("meta-llama/Meta-Llama-3-8B-Instruct", LLAMA, COMMON),
    ("meta-llama/Llama-3.1-70B-Instruct", LLAMA, COMMON),
    ("meta-llama/Llama-3.1-405B-Instruct-FP8", LLAMA, COMMON),
    ("meta-llama/Llama-3.2-3B-Instruct", LLAMA, COMMON),
    ("meta-llama/Llama-3.3-70B-Instruct", LLAMA, COMMON),
    ("meta-llama/Llama-Guard-3-8B", LLAMA, COMMON),
    ("meta-llama/Llama-3.2-11B-Vision-Instruct", "MllamaForConditionalGeneration", COMMON),
    ("RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic", LLAMA, COMMON),
    ("hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4", LLAMA, COMMON),
    ("unsloth/Llama-3.2-1B-Instruct", LLAMA, COMMON),
    # Qwen 2.5 / 3
    ("Qwen/Qwen2.5-14B-Instruct", QWEN2, COMMON),
    ("Qwen/Qwen2.5-32B-Instruct-AWQ", QWEN2, COMMON),
    ("Qwen/Qwen2.5-72B-Instruct", QWEN2, COMMON),
    ("Qwen/Qwen2.5-Coder-7B-Instruct", QWEN2, COMMON),
    ("Qwen/Qwen2.5-Coder-32B-Instruct", QWEN2, COMMON),
    ("Qwen/Qwen2.5-Math-7B-Instruct", QWEN2, COMMON),
    ("Qwen/Qwen2.5-VL-7B-Instruct", "Qwen2_5_VLForConditionalGeneration", COMMON),
    ("Qwen/Qwen2.5-VL-32B-Instruct", "Qwen2_5_VLForConditionalGeneration", COMMON),
    ("Qwen/Qwen3-4B", QWEN3, COMMON),
    ("Qwen/Qwen3-32B", QWEN3, COMMON),
    ("Qwen/Qwen3-8B-FP8", QWEN3, COMMON),
    ("Qwen/Qwen3-4B-Instruct-2507", QWEN3, COMMON),
    ("Qwen/Qwen3-30B-A3B-Instruct-2507", QWEN3_MOE, COMMON),
    ("Qwen/Qwen3-235B-A22B-Instruct-2507-FP8", QWEN3_MOE, COMMON),
    ("Qwen/Qwen3-Coder-30B-A3B-Instruct", QWEN3_MOE, COMMON),
    ("Qwen/Qwen3-Coder-480B-A35B-Instruct", QWEN3_MOE, COMMON),
    ("Qwen/Qwen3-VL-8B-Instruct", "Qwen3VLForConditionalGeneration", COMMON),
    ("Qwen/Qwen3-VL-235B-A22B-Instruct", "Qwen3VLMoeForConditionalGeneration", COMMON),
    ("Qwen/Qwen3-Next-80B-A3B-Thinking", "Qwen3NextForCausalLM", COMMON),
    ("unsloth/Qwen3-14B", QWEN3, COMMON),
    # Mistral / Mixtral
    ("mistralai/Mistral-7B-Instruct-v0.2", MISTRAL, COMMON),
    ("mistralai/Mistral-7B-v0.3", MISTRAL, COMMON),
    ("mistralai/Mixtral-8x22B-Instruct-v0.1", "MixtralForCausalLM", COMMON),
    ("TheBloke/Mistral-7B-Instruct-v0.2-AWQ", MISTRAL, COMMON),
    ("mistralai/Mistral-Nemo-Instruct-2407", MISTRAL, COMMON),
    ("mistralai/Mistral-Small-24B-Instruct-2501", MISTRAL, COMMON),
    ("mistralai/Mistral-Small-3.2-24B-Instruct-2506", "Mistral3ForConditionalGeneration", COMMON),
    ("mistralai/Ministral-8B-Instruct-2410", MISTRAL, COMMON),
    ("mistralai/Mistral-Large-Instruct-2411", MISTRAL, COMMON),
    ("mistralai/Codestral-22B-v0.1", MISTRAL, COMMON),
    # DeepSeek V3 / R1
    ("deepseek-ai/DeepSeek-V3-0324", DSV3, COMMON),
    ("deepseek-ai/DeepSeek-R1-0528", DSV3, COMMON),
    ("deepseek-ai/DeepSeek-V3.1-Terminus", DSV3, COMMON),
    ("deepseek-ai/DeepSeek-V2.5", "DeepseekV2ForCausalLM", COMMON),
    ("deepseek-ai/DeepSeek-V2-Lite", "DeepseekV2ForCausalLM", COMMON),
    ("deepseek-ai/DeepSeek-Coder-V2-Lite-Instruct", "DeepseekV2ForCausalLM", COMMON),
    ("deepseek-ai/DeepSeek-R1-Distill-Qwen-7B", QWEN2, COMMON),
    ("deepseek-ai/DeepSeek-R1-Distill-Llama-70B", LLAMA, COMMON),
    ("deepseek-ai/deepseek-coder-6.7b-instruct", LLAMA, COMMON),
    ("moonshotai/Kimi-K2-Instruct", DSV3, COMMON),
    # Gemma 2 / 3
    ("google/gemma-7b-it", "GemmaForCausalLM", COMMON),
    ("google/gemma-2-9b-it", "Gemma2ForCausalLM", COMMON),
    ("google/gemma-2-27b-it", "Gemma2ForCausalLM", COMMON),
    ("google/gemma-3-4b-it", GEMMA3_MM, COMMON),
    ("google/gemma-3-12b-it", GEMMA3_MM, COMMON),
    ("google/gemma-3-270m-it", "Gemma3ForCausalLM", COMMON),
    ("google/gemma-3-1b-pt", "Gemma3ForCausalLM", COMMON),
    ("unsloth/gemma-3-12b-it", GEMMA3_MM, COMMON),
    # Phi
    ("microsoft/phi-2", "PhiForCausalLM", COMMON),
    ("microsoft/Phi-3-mini-4k-instruct", "Phi3ForCausalLM", COMMON),
    ("microsoft/Phi-3-medium-4k-instruct", "Phi3ForCausalLM", COMMON),
    ("microsoft/Phi-3-small-8k-instruct", "Phi3SmallForCausalLM", COMMON),
    ("microsoft/Phi-3.5-mini-instruct", "Phi3ForCausalLM", COMMON),
    ("microsoft/phi-4", "Phi3ForCausalLM", COMMON),
    ("microsoft/Phi-4-mini-instruct", "Phi3ForCausalLM", COMMON),
    ("microsoft/Phi-4-reasoning", "Phi3ForCausalLM", COMMON),
    # Nemotron-H (hybrid Mamba)
    ("nvidia/Nemotron-H-4B-Instruct-128K", NEMOTRON_H, COMMON),
    ("nvidia/Nemotron-H-8B-Reasoning-128K", NEMOTRON_H, COMMON),
    ("nvidia/NVIDIA-Nemotron-Nano-12B-v2", NEMOTRON_H, COMMON),
    ("nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", NEMOTRON_H, COMMON),
    ("nvidia/NVIDIA-Nemotron-Nano-12B-v2-VL-BF16", "NemotronH_Nano_VL_V2", COMMON),
    # Falcon-H1 and Falcon
    ("tiiuae/Falcon-H1-0.5B-Instruct", "FalconH1ForCausalLM", COMMON),
    ("tiiuae/Falcon-H1-1.5B-Instruct", "FalconH1ForCausalLM", COMMON),
    ("tiiuae/Falcon-H1-3B-Instruct", "FalconH1ForCausalLM", COMMON),
    ("tiiuae/Falcon-H1-34B-Instruct", "FalconH1ForCausalLM", COMMON),
    ("tiiuae/Falcon-H1-1.5B-Deep-Instruct", "FalconH1ForCausalLM", COMMON),
    ("tiiuae/falcon-mamba-7b", "FalconMambaForCausalLM", COMMON),
    ("tiiuae/Falcon3-7B-Instruct", LLAMA, COMMON),
    ("tiiuae/Falcon3-Mamba-7B-Instruct", "FalconMambaForCausalLM", COMMON),
    # Jamba
    ("ai21labs/AI21-Jamba-Large-1.5", "JambaForCausalLM", COMMON),
    ("ai21labs/AI21-Jamba-Mini-1.6", "JambaForCausalLM", COMMON),
    ("ai21labs/AI21-Jamba-Large-1.7", "JambaForCausalLM", COMMON),
    ("ai21labs/Jamba-v0.1", "JambaForCausalLM", COMMON),
    # Mamba / Mamba2
    ("state-spaces/mamba-370m-hf", "MambaForCausalLM", COMMON),
    ("state-spaces/mamba-1.4b-hf", "MambaForCausalLM", COMMON),
    ("state-spaces/mamba-2.8b-hf", "MambaForCausalLM", COMMON),
    ("tiiuae/falcon-mamba-7b-instruct", "FalconMambaForCausalLM", COMMON),
    # Granite
    ("ibm-granite/granite-3.1-2b-instruct", "GraniteForCausalLM", COMMON),
    ("ibm-granite/granite-3.2-8b-instruct", "GraniteForCausalLM", COMMON),
    ("ibm-granite/granite-3.3-8b-instruct", "GraniteForCausalLM", COMMON),
    ("ibm-granite/granite-3.1-3b-a800m-instruct", "GraniteMoeForCausalLM", COMMON),
    ("ibm-granite/granite-4.0-h-small", GRANITE_HYBRID, COMMON),
    ("ibm-granite/granite-4.0-h-tiny", GRANITE_HYBRID, COMMON),
    ("ibm-granite/granite-4.0-h-micro", GRANITE_HYBRID, COMMON),
    ("ibm-granite/granite-4.0-micro", None, COMMON),
    # Other frequent ones
    ("zai-org/GLM-4.5-Air", "Glm4MoeForCausalLM", COMMON),
    ("zai-org/GLM-4.6", "Glm4MoeForCausalLM", COMMON),
    ("MiniMaxAI/MiniMax-M2.1", "MiniMaxM2ForCausalLM", COMMON),
    ("allenai/OLMo-2-1124-7B-Instruct", "Olmo2ForCausalLM", COMMON),
    ("HuggingFaceTB/SmolLM3-3B", "SmolLM3ForCausalLM", COMMON),
]


def measure(infer: bool) -> tuple[int, list[str], list[tuple[str, str, str | None]]]:
    """(resolved count, unresolved ids, wrong answers as (id, got, expected))."""
    resolved = 0
    misses: list[str] = []
    wrong: list[tuple[str, str, str | None]] = []
    for model_id, expected, _ in CASES:
        # An empty environment keeps a developer's real HF cache out of it.
        res = resolve_model(model_id, env={"HF_HUB_CACHE": "/nonexistent/servelint-test"}, infer=infer)
        if res is None or res.architecture is None:
            misses.append(model_id)
            continue
        resolved += 1
        if expected is not None and res.architecture != expected:
            wrong.append((model_id, res.architecture, expected))
    return resolved, misses, wrong


def test_cases_are_distinct() -> None:
    ids = [c[0].lower() for c in CASES]
    assert len(ids) == len(set(ids))


def test_family_inference_never_contradicts_a_known_architecture() -> None:
    _, _, wrong = measure(infer=True)
    assert wrong == []


def test_family_inference_covers_the_common_families() -> None:
    before, _, _ = measure(infer=False)
    after, misses, _ = measure(infer=True)
    assert after > before
    # Numbers recorded in server/servelint/knowledge/MODELS.md; a drop
    # means a rule change lost ground.
    assert after >= 108, misses


def test_launch_survey_and_oracle_ids_resolve() -> None:
    wanted = {c[0] for c in CASES if c[2] in (SURVEY, ORACLE)}
    _, misses, _ = measure(infer=True)
    # CodeLlama has no documented relative in vLLM 0.33.0's docs: its
    # family name appears nowhere in the table.
    assert sorted(wanted & set(misses)) == ["codellama/CodeLlama-13b-Instruct-hf"]


def main() -> None:
    before, _, wrong_before = measure(infer=False)
    after, misses, wrong_after = measure(infer=True)
    total = len(CASES)
    print(f"{total} ids; table only: {before} resolve; with family inference: {after}")
    for origin in (SURVEY, ORACLE, COMMON):
        subset = [c for c in CASES if c[2] == origin]
        got = sum(1 for c in subset if c[0] not in misses)
        print(f"  {origin}: {got}/{len(subset)}")
    print("wrong:", wrong_before + wrong_after or "none")
    print("misses:")
    for model_id in misses:
        expected = next(c[1] for c in CASES if c[0] == model_id)
        print(f"  {model_id}  ({expected})")


if __name__ == "__main__":
    main()
