"""Operator resources that start vLLM: KServe, llmaz, kubeai (issue 16, item 8).
The inputs are the golden cases of tests/forms/kubernetes; these tests hold
the facts a user relies on (which words, where, what is unknown)."""

from __future__ import annotations

from pathlib import Path

from servelint.model import Entry
from servelint.parse import parse_document

CASES = Path(__file__).parent.parent / "forms" / "kubernetes"


def read(name: str):
    text = (CASES / name).read_text()
    return text, parse_document(name, text).launches


def written(text: str, w) -> str:
    return text[w.span.start : w.span.end]


def test_llm_inference_service_decode_and_prefill() -> None:
    text, (decode, prefill, pvc) = read("kserve-llminferenceservice.yaml")
    assert decode.entry is Entry.SERVE and decode.entry_unknown is None
    texts = [w.text for w in decode.args]
    assert texts[:3] == ["Qwen/Qwen2.5-7B-Instruct", "--served-model-name", "Qwen/Qwen2.5-7B-Instruct"]
    assert written(text, decode.args[0]) == "Qwen/Qwen2.5-7B-Instruct"  # inside hf://...
    assert texts[texts.index("--tensor-parallel-size") + 1] == "2"
    # VLLM_ADDITIONAL_ARGS (a folded scalar) is split like the shell KServe evals it with.
    flag = next(w for w in decode.args if w.text == "--tool-call-parser=hermes")
    assert written(text, flag) == "--tool-call-parser=hermes"
    assert texts[-1] == "--enable-prefix-caching"  # the container's args come last ($@)
    # What KServe adds for the vLLM version it finds is not known here.
    assert [w.exact for w in decode.opaque] == [False]
    ptexts = [w.text for w in prefill.args]
    assert ptexts[ptexts.index("--tensor-parallel-size") + 1] == "4"
    assert ptexts[-2:] == ["--kv_transfer_config", '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}']
    # A model not on Hugging Face: the directory KServe serves, unknown.
    assert pvc.args[0].text == "/mnt/models" and not pvc.args[0].exact
    assert pvc.image == "vllm/vllm-openai:v0.10.1"


def test_inference_service_runtimes() -> None:
    text, (vllm, hf, runtime) = read("kserve-inferenceservice.yaml")
    assert vllm.entry is Entry.API_SERVER
    assert [w.text for w in vllm.args] == [
        "--port=8080", "--served-model-name=llama3", "--model=meta-llama/Llama-3.1-8B-Instruct",
        "--max-model-len=8192", "--gpu-memory-utilization=0.9",
    ]
    # huggingfaceserver reads its own options with vLLM's: not vLLM's parser.
    assert hf.entry_unknown.startswith("KServe's huggingfaceserver reads these arguments")
    # The runtime's {{.Name}} is filled in by KServe.
    assert not runtime.args[1].exact and runtime.args[1].text == "--served-model-name={{.Name}}"


def test_llmaz_backend_runtime_one_launch_per_config() -> None:
    text, launches = read("llmaz-backendruntime.yaml")
    assert len(launches) == 3  # the sglang runtime is not vLLM
    default, spec, playground = launches
    assert default.entry is Entry.API_SERVER and default.image == "vllm/vllm-openai:v0.8.5"
    assert [(w.text, w.exact) for w in default.args[:2]] == [("--model", True), ("{{ .ModelPath }}", False)]
    assert "--speculative_model" in [w.text for w in spec.args]
    # A Playground adds arguments to a BackendRuntime held elsewhere.
    assert [w.text for w in playground.args] == ["--enable-prefix-caching", "--max-num-seqs=96"]
    assert playground.entry_unknown.startswith("the BackendRuntime `vllm` (not in this file)")


def test_kubeai_model() -> None:
    text, [model] = read("kubeai-model.yaml")
    assert model.entry is Entry.API_SERVER
    assert model.args[0].text == "--model=neuralmagic/Meta-Llama-3.1-8B-Instruct-FP8"
    assert model.args[2].text == "--max-model-len=16384" and written(text, model.args[2]) == "--max-model-len=16384"
    assert model.env["VLLM_ATTENTION_BACKEND"].value == "FLASHINFER"
