#!/bin/sh
# servelint: vllm=0.33.0
# Redundant experts, but EPLB stays off.
vllm serve ../../../conformance/models/mixtral \
  -tp 2 --eplb-config '{"num_redundant_experts": 2}'
