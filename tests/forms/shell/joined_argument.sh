#!/bin/bash
# One quoted word holding a flag and its value reaches vLLM as one argument.
vllm serve Qwen/Qwen3-0.6B "--max-model-len 4096" '--enforce-eager --seed 1'
# Clean: JSON values keep their spaces; each flag is its own word.
vllm serve Qwen/Qwen3-0.6B --speculative-config '{"method": "ngram", "num_speculative_tokens": 3}' \
  '--compilation-config={"cudagraph_mode": "PIECEWISE"}' --served-model-name "my model"
