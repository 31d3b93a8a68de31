#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case compilation/backend_custom_vllm_compile.
vllm serve ../../../conformance/models/llama --compilation-config '{"mode": 3, "backend": "cudagraphs"}'
