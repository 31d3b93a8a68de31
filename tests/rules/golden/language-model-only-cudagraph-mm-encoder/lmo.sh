#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/qwen2-vl --language-model-only -cc '{"cudagraph_mm_encoder": true}'
# A text-only model has no multimodal config: silent.
vllm serve ../../../conformance/models/llama --language-model-only -cc '{"cudagraph_mm_encoder": true}'
