#!/bin/bash
vllm serve --config vllm_config.yaml
vllm serve Qwen/Qwen3-8B --config=./config.yaml --port 8001
CONFIG_DIR=/etc/vllm
nohup vllm serve --config "$CONFIG_DIR/serve.yaml" > log &
