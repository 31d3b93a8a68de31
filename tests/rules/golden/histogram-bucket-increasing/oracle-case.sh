#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case observability/bucket_dotted_key.
vllm serve ../../../conformance/models/llama --custom-histogram-buckets.request_latency '[2, 1]'
