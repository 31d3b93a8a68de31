#!/bin/sh
# servelint: vllm=0.33.0
# Llama 3.1 8B has 8 KV heads: DCP needs more than 8 TP ranks.
vllm serve meta-llama/Llama-3.1-8B-Instruct -tp 8 --decode-context-parallel-size 2
vllm serve meta-llama/Llama-3.1-8B-Instruct -tp 16 --decode-context-parallel-size 2
# DeepSeek-V3 uses MLA: the GQA checks do not apply.
vllm serve ../../../conformance/models/deepseek-v3 -tp 8 -dcp 2
# 16 TP ranks over 8 KV heads: each head has 2 replicas, so DCP is at most 2.
vllm serve meta-llama/Llama-3.1-8B-Instruct -tp 16 --decode-context-parallel-size 4
vllm serve meta-llama/Llama-3.1-8B-Instruct -tp 16 --decode-context-parallel-size 2
# 20 attention heads over 4 KV heads: 5 query heads per KV head.
vllm serve ../../../conformance/rules/models/llama-heads20-kv4 -tp 20 --decode-context-parallel-size 2
vllm serve ../../../conformance/rules/models/llama-heads20-kv4 -tp 20 --decode-context-parallel-size 5
