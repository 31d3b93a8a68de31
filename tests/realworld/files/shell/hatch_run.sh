#!/usr/bin/env bash
# Dev server inside the project's hatch environment (see pyproject.toml).
cd "$(dirname "$0")/.."
hatch run -- vllm serve Qwen/Qwen3-0.6B \
  --max-model-len 4096 \
  --enforce-eager \
  --port 9000
