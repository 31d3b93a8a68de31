#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/qwen4exp-ple --enable-dbo --all2all-backend deepep_low_latency -dp 2 --enable-expert-parallel
vllm serve ../../../conformance/rules/models/qwen4exp-ple --ubatch-size 2 --all2all-backend deepep_low_latency -dp 2 --enable-expert-parallel
vllm serve ../../../conformance/rules/models/qwen4exp-qsa --enable-dbo --all2all-backend deepep_high_throughput -dp 2 --enable-expert-parallel
# Without PLE or QSA layers, or with one microbatch: silent.
vllm serve ../../../conformance/rules/models/qwen4exp --enable-dbo --all2all-backend deepep_low_latency -dp 2 --enable-expert-parallel
vllm serve ../../../conformance/rules/models/qwen4exp-ple --ubatch-size 1
