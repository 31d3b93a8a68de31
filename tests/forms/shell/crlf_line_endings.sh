#!/bin/bash
MODEL=Qwen/Qwen3-8B
vllm serve "$MODEL" \
  --port 8000
