#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/deepseek-v3-dsa -tp 2 -dcp 2 --attention-config '{"hisparse_config": {}}'
# With pipeline parallelism too, vLLM reports that first: silent here.
vllm serve ../../../conformance/rules/models/deepseek-v3-dsa -tp 2 -pp 2 -dcp 2 --attention-config '{"hisparse_config": {}}'
