#!/bin/bash
# Quoted words reach vLLM as one argument each.
vllm serve Qwen/Qwen3-0.6B "--max-model-len 4096" '--enforce-eager --seed 1' \
  --served-model-name "my model" --speculative-config '{"method": "ngram", "num_speculative_tokens": 3}'
