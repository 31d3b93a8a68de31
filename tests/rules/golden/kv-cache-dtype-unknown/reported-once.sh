#!/bin/sh
# servelint: vllm=0.33.0
# One diagnostic for a bad --kv-cache-dtype: this rule's (invalid-value stays silent).
vllm serve ../../../conformance/models/llama --kv-cache-dtype fp9
