#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case frontend/sse_keep_alive_negative.
vllm serve ../../../conformance/models/llama --sse-keep-alive-interval -1
