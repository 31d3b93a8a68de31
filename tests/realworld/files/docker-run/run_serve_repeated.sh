#!/bin/bash
# Runs the upstream image with an explicit subcommand.
docker run --gpus all -p 8000:8000 \
  vllm/vllm-openai:v0.32.0 \
  serve mistralai/Mistral-7B-Instruct-v0.1 --max-model-len 8192
