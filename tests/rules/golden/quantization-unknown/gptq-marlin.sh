#!/bin/sh
# servelint: vllm=0.33.0
# `marlin` is no quantization method, but vLLM's AutoGPTQConfig override
# claims a GPTQ checkpoint for it before the method list is checked: silent.
vllm serve ../../../conformance/top25/models/llama-gptq --quantization marlin
# The same value on a checkpoint that is not quantized: vLLM refuses it.
vllm serve ../../../conformance/models/llama --quantization marlin
# A value no override names, on the GPTQ checkpoint: still reported.
vllm serve ../../../conformance/top25/models/llama-gptq --quantization bogus
