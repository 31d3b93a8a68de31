#!/bin/bash
vllm serve Qwen/Qwen3-8B \
  --chat-template $'{% for m in messages %}\n{{ m.content }}{% endfor %}' \
  --served-model-name qwen\ 8b "a \"quoted\" name" 'it'\''s' \
  --download-dir "/data/\$HOME"
