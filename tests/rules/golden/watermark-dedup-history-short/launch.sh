#!/bin/sh
# servelint: vllm=0.33.0
# Gumbel-max watermarking without context deduplication.
vllm serve ../../../conformance/models/llama \
  --watermark-config '{"key": 7, "deduplicate_contexts": "none"}'
