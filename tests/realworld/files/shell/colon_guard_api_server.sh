#!/usr/bin/env bash
# Usage: MODEL=... TP=... ./colon_guard_api_server.sh
: "${MODEL:?}"
: "${TP:?}"
: "${PORT:=8080}"

export VLLM_LOGGING_LEVEL=INFO

python3 -m vllm.entrypoints.openai.api_server \
    --model "$MODEL" \
    --tensor-parallel-size "$TP" \
    --host 0.0.0.0 \
    --port "$PORT" \
    --max-num-seqs 128
