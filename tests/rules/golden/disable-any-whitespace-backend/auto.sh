#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/llama --structured-outputs-config '{"disable_any_whitespace": true}'
