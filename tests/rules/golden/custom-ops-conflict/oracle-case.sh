#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case compilation/custom_ops_conflict.
vllm serve ../../../conformance/models/llama --compilation-config '{"custom_ops": ["+rms_norm", "-rms_norm"]}'
