#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/llama --kv-sharing-fast-prefill
vllm serve ../../../conformance/models/llama --no-kv-sharing-fast-prefill
