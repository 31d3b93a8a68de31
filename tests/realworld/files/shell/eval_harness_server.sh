#!/usr/bin/env bash
# Server for the lm-eval runs: two names for the same weights, and a key.
set -euo pipefail

vllm serve deepseek-ai/DeepSeek-R1 \
  --tensor-parallel-size 8 \
  --served-model-name deepseek-r1 r1 \
  --api-key "${EVAL_API_KEY:-local-only}" \
  --max-model-len 32768 \
  --trust-remote-code &

for _ in $(seq 1 120); do
  curl -sf localhost:8000/v1/models && break
  sleep 10
done

lm_eval --model local-completions \
  --model_args model=deepseek-r1,base_url=http://localhost:8000/v1/completions \
  --tasks gsm8k
