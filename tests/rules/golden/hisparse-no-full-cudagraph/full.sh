#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/deepseek-v3-dsa -tp 2 --attention-config '{"hisparse_config": {}}' -cc '{"cudagraph_mode": "FULL"}'
# The default FULL_AND_PIECEWISE: silent.
vllm serve ../../../conformance/rules/models/deepseek-v3-dsa -tp 2 --attention-config '{"hisparse_config": {}}' -cc '{"cudagraph_mode": "FULL_AND_PIECEWISE"}'
# Eager mode turns CUDA graphs off before the check: silent.
vllm serve ../../../conformance/rules/models/deepseek-v3-dsa -tp 2 --attention-config '{"hisparse_config": {}}' -cc '{"cudagraph_mode": "FULL"}' --enforce-eager
