#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case compilation/token_budgets_zero.
vllm serve ../../../conformance/models/llama --compilation-config '{"encoder_cudagraph_token_budgets": [0, 1024]}'
