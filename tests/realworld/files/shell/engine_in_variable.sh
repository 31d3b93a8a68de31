#!/usr/bin/env bash
# Works with docker or podman: ENGINE=podman ./engine_in_variable.sh
set -eu
ENGINE=${ENGINE:-docker}
IMAGE=vllm/vllm-openai:v0.30.0
HF_CACHE=${HF_CACHE:-$HOME/.cache/huggingface}

"$ENGINE" run --rm --gpus all \
  -v "$HF_CACHE:/root/.cache/huggingface" \
  -p 8000:8000 --ipc=host \
  "$IMAGE" \
  --model Qwen/Qwen3-8B \
  --max-model-len 16384 \
  --enable-auto-tool-choice \
  --tool-call-parser hermes
