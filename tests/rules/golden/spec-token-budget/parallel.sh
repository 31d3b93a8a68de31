#!/usr/bin/env bash
# servelint: vllm=0.33.0
# A tiny budget tuned for one sequence: the parallel drafter needs 4 slots.
vllm serve ../../../conformance/models/llama --max-num-seqs 1 --max-num-batched-tokens 4 \
  --speculative-config '{"model": "../../../conformance/models/llama", "num_speculative_tokens": 4, "parallel_drafting": true}'
