#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/llama-bidirectional
vllm serve ../../../conformance/rules/models/llama-bidirectional-pooling-max --max-model-len 4096
# A pooling vLLM knows, or one --hf-overrides may supply: silent.
vllm serve ../../../conformance/rules/models/llama-bidirectional-pooling-cls
vllm serve ../../../conformance/rules/models/llama-bidirectional --hf-overrides '{"pooling": "avg"}'
