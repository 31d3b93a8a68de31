#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The batch-size schedule is dropped with data parallelism.
vllm serve ../../../conformance/models/llama --data-parallel-size 2 --speculative-config \
  '{"method": "ngram", "num_speculative_tokens": 3, "num_speculative_tokens_per_batch_size": [[1, 8, 3], [9, 256, 1]]}'
