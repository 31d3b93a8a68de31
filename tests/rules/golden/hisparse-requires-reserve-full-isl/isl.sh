#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/deepseek-v3-dsa -tp 2 --attention-config '{"hisparse_config": {}}' --no-scheduler-reserve-full-isl
# The default reserves the full input length: silent.
vllm serve ../../../conformance/rules/models/deepseek-v3-dsa -tp 2 --attention-config '{"hisparse_config": {}}' --scheduler-reserve-full-isl
