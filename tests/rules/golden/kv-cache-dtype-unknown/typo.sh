#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/llama --kv-cache-dtype fp8_e4m3fn
