#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The active-sequence cap was copied from a launch tuned for more sequences.
vllm serve Qwen/Qwen3-8B \
  --max-num-seqs 128 \
  --max-num-active-seqs 256
