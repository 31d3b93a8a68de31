#!/bin/bash
# the model comes from the first argument, everything else passes through
MODEL=$1
shift
exec python3 -m vllm.entrypoints.openai.api_server --model "$MODEL" --host 0.0.0.0 "$@"
vllm serve "${1:-Qwen/Qwen3-0.6B}" $@
