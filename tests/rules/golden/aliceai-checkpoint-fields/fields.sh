#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/aliceai-router-softmax
# The supported variant, or fields --hf-overrides may change: silent.
vllm serve ../../../conformance/rules/models/aliceai
vllm serve ../../../conformance/rules/models/aliceai-router-softmax --hf-overrides '{"router_score_function": "sigmoid"}'
