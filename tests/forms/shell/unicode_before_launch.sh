#!/bin/bash
# 启动模型服务 — déploiement 🚀 (non-ASCII text before the launch)
echo "模型: Qwen 🚀"
MODEL="Qwen/Qwen3-8B"   # 模型
vllm serve "$MODEL" --served-model-name "通义千问 🚀" \
  --chat-template "./模板/chat.jinja" --port 8000
