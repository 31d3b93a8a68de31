#!/usr/bin/env bash
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/llama --per-request-spec-decode-metrics summary
