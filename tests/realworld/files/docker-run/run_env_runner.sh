#!/usr/bin/env bash
# Generic runner: every setting is passed in by the caller's environment.
#   MODEL=... TP=... MAX_MODEL_LEN=... ./run_env_runner.sh
docker run --rm --gpus all --ipc=host \
  -e MODEL -e TP -e MAX_MODEL_LEN -e HF_TOKEN \
  -p "${PORT:-8000}:8000" \
  vllm/vllm-openai:v0.33.0 \
  "$MODEL" \
  --tensor-parallel-size "$TP" \
  --max-model-len "$MAX_MODEL_LEN"
