#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/qwen4exp-ple -pp 2
vllm serve ../../../conformance/rules/models/qwen4exp-ple --pipeline-parallel-size=4 -tp 2
# Without PLE layers, or with one pipeline stage: silent.
vllm serve ../../../conformance/rules/models/qwen4exp -pp 2
vllm serve ../../../conformance/rules/models/qwen4exp-ple -pp 1
# --hf-overrides may change the layers: silent.
vllm serve ../../../conformance/rules/models/qwen4exp-ple -pp 2 --hf-overrides '{"ple_layer_ids": []}'
