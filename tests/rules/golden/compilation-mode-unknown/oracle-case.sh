#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case compilation/mode_unknown.
vllm serve ../../../conformance/models/llama --compilation-config '{"mode": "vllm"}'
