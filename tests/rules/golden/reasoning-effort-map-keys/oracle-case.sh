#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case frontend/effort_map_unknown_effort.
vllm serve ../../../conformance/models/llama --reasoning-effort-map '{"low": "a", "hihg": "b", "Max": "c"}'
