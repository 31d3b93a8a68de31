#!/usr/bin/env bash
# servelint: vllm=0.33.0
# CUDA graphs stay on (the default on CUDA), but no size is left to capture.
vllm serve ../../../conformance/models/qwen3 -cc.cudagraph_capture_sizes='[]'
