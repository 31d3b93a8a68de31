#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/qwen2-audio --runner pooling --convert embed --renderer-num-workers 4
vllm serve ../../../conformance/rules/models/qwen2-audio --convert embed --renderer-num-workers=2 --mm-processor-cache-gb 8
# Generating (0.27.0+), the cache off, one worker, or a text-only model: silent.
vllm serve ../../../conformance/rules/models/qwen2-audio --renderer-num-workers 4
vllm serve ../../../conformance/rules/models/qwen2-audio --runner pooling --convert embed --renderer-num-workers 4 --mm-processor-cache-gb 0
vllm serve ../../../conformance/rules/models/qwen2-audio --runner pooling --convert embed --renderer-num-workers 1
vllm serve meta-llama/Llama-3.1-8B-Instruct --runner pooling --renderer-num-workers 4
