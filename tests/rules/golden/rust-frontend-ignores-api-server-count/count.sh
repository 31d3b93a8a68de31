#!/bin/sh
# servelint: vllm=0.33.0
# ServeSubcommand.cmd logs it: the oracle does not run it
export VLLM_USE_RUST_FRONTEND=1
vllm serve ../../../conformance/models/llama --api-server-count 4
# not reported
vllm serve ../../../conformance/models/llama --api-server-count 1
