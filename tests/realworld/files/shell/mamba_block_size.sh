#!/bin/bash
# Codestral Mamba with prefix caching for the repo-chat demo.
vllm serve mistralai/Mamba-Codestral-7B-v0.1 \
  --mamba-block-size 64 \
  --max-model-len 32768

# what we run now
vllm serve mistralai/Mamba-Codestral-7B-v0.1 \
  --enable-prefix-caching \
  --mamba-block-size 64 \
  --max-model-len 32768
