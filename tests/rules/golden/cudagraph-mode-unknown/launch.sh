#!/usr/bin/env bash
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/llama -cc '{"cudagraph_mode": "full_decode"}'
