#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/llama --structured-outputs-config '{"backend": "lm-format-enforcer"}'
# accepted
vllm serve ../../../conformance/models/llama --structured-outputs-config.backend xgrammar
