#!/usr/bin/env bash
# Speculative decoding written as dotted keys (easier to template than JSON).
vllm serve meta-llama/Llama-3.2-1B-Instruct \
  --speculative-config.method ngram \
  --speculative-config.num-speculative-tokens 1 \
  --speculative-config.prompt-lookup-max 3 \
  --max-model-len 8192
