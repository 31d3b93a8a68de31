#!/usr/bin/env bash
# Flags collected in an array; quantized KV cache only when asked for.
MODEL_PATH=mistralai/Mixtral-8x7B-Instruct-v0.1
ARGS=(
  --tensor-parallel-size 2
  --max-model-len 16384
  --enable-chunked-prefill
)
if [ "${KV_FP8:-0}" = "1" ]; then
  ARGS+=(--kv-cache-dtype fp8)
fi
vllm serve "$MODEL_PATH" "${ARGS[@]}"
