#!/usr/bin/env bash
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/llama --spec-tokens 3 \
  --speculative-config '{"method": "ngram", "num_speculative_tokens": 4}'
