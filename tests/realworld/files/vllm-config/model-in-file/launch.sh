#!/bin/bash
cd "$(dirname "$0")"
nohup vllm serve --config qwen.yaml > vllm_server.log 2>&1 &
