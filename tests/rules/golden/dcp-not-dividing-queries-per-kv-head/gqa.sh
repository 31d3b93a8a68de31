#!/bin/sh
# servelint: vllm=0.33.0
# 20 attention heads over 4 KV heads: 5 query heads per KV head.
vllm serve ../../../conformance/rules/models/llama-heads20-kv4 -tp 20 --decode-context-parallel-size 2
vllm serve ../../../conformance/rules/models/llama-heads20-kv4 -tp 20 --decode-context-parallel-size 5
