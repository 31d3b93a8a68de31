#!/usr/bin/env bash
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/deepseek-v41-engram --ubatch-size 2 --all2all-backend deepep_low_latency
# No Engram layers: accepted by this rule.
vllm serve ../../../conformance/rules/models/deepseek-v41 --ubatch-size 2 --all2all-backend deepep_low_latency
