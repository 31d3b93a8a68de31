#!/bin/bash
# The image's entry point is replaced so that we can source the env first.
docker run --rm --gpus all --entrypoint bash \
  -v "$PWD/env.sh:/env.sh:ro" \
  vllm/vllm-openai:v0.31.0 \
  -c "source /env.sh && exec vllm serve Qwen/Qwen3-0.6B --max-model-len 4096 --max-num-seqs 32"
