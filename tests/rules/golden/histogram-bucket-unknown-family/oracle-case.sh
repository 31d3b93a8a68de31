#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case observability/bucket_unknown_family.
vllm serve ../../../conformance/models/llama --custom-histogram-buckets '{"e2e_latency": [0.1, 1.0]}'
