#!/usr/bin/env bash
# servelint: vllm=0.32.0
# The oracle's trigger case observability/bucket_empty.
vllm serve ../../../conformance/models/llama --custom-histogram-buckets '{"request_latency": []}'
