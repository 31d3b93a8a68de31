#!/usr/bin/env bash
# Two attempts at the same compilation setting.
vllm serve Qwen/Qwen3-8B --compilation-config.cudagraph-mode FULL --port 8000 &
vllm serve Qwen/Qwen3-8B --compilation-config.cudagraph_mode FULL --port 8001 &
wait
