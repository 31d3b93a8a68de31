#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case compilation/custom_ops_two_bases.
vllm serve ../../../conformance/models/llama --compilation-config '{"custom_ops": ["all", "none"]}'
