#!/bin/bash
ARGS=(--max-model-len 8192 --served-model-name "my model")
ARGS+=(--enforce-eager)
if [[ -n "$SPEC" ]]; then
  DYN+=(--speculative-config "$SPEC")
fi
vllm serve Qwen/Qwen3-8B "${ARGS[@]}" --port 8000
vllm serve Qwen/Qwen3-8B "${DYN[@]}" --port 8001
