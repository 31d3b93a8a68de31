#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The draft was trained with block_size 4: DSpark decodes that many tokens.
vllm serve ../../../conformance/rules/models/qwen3-omni \
  --speculative-config '{"model": "../../../conformance/rules/models/qwen3-omni-dspark", "num_speculative_tokens": 3}'
