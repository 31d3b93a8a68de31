#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/aliceai -pp 2
vllm serve ../../../conformance/rules/models/aliceai --pipeline-parallel-size=3
# One pipeline stage, or another model: silent.
vllm serve ../../../conformance/rules/models/aliceai -pp 1 -tp 2
vllm serve ../../../conformance/rules/models/qwen4exp -pp 2
