#!/bin/sh
# servelint: vllm=0.33.0
# GPUs picked by index, on an executor that places workers itself.
vllm serve ../../../conformance/models/llama -tp 2 --distributed-executor-backend ray --device-ids 2,3
