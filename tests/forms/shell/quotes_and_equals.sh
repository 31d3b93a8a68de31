#!/bin/bash
vllm serve "Qwen/Qwen3-8B" --served-model-name 'my model' "qwen" \
  --chat-template="./templates/tool chat.jinja" --host=0.0.0.0 \
  --api-key="x"y'z' --download-dir /data/hf\ cache --tokenizer=""
