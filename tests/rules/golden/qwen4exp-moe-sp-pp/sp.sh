#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/qwen4exp -tp 2 -dp 2 --enable-expert-parallel -pp 2
vllm serve ../../../conformance/rules/models/qwen4exp -tp 2 -dp 2 --enable-expert-parallel -pp 2 --all2all-backend deepep_high_throughput
# No expert parallelism, one DP rank, or one pipeline stage: silent.
vllm serve ../../../conformance/rules/models/qwen4exp -tp 2 -dp 2 -pp 2
vllm serve ../../../conformance/rules/models/qwen4exp -tp 2 --enable-expert-parallel -pp 2
vllm serve ../../../conformance/rules/models/qwen4exp -tp 2 -dp 2 --enable-expert-parallel
