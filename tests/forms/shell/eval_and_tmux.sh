#!/bin/bash
EXTRA="--enable-prefix-caching"
eval "exec vllm serve /mnt/models --port 8080 ${EXTRA}"
tmux new-session -d -s vllm "vllm serve Qwen/Qwen3-8B --port 8001"
tmux send-keys -t vllm:0 'vllm serve Qwen/Qwen3-8B --port 8002' Enter
screen -dmS vllm vllm serve Qwen/Qwen3-8B --port 8003
