#!/bin/sh
# servelint: vllm=0.33.0
# An fp8 checkpoint served with --quantization gptq: vLLM refuses the pair.
vllm serve ../../../conformance/top25/models/qwen3-fp8 --quantization gptq
# A GPTQ checkpoint with gptq_marlin: vLLM's override accepts it (silent).
vllm serve ../../../conformance/top25/models/llama-gptq --quantization gptq_marlin
