#!/usr/bin/env bash
# Small prefill budget for latency; long context.
vllm serve meta-llama/Llama-3.2-1B-Instruct \
  --max-model-len 32768 \
  --no-enable-chunked-prefill \
  --max-num-batched-tokens 4096 \
  --max-num-seqs 256
