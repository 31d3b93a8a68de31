#!/usr/bin/env bash
# servelint: vllm=0.28.0
# qwen3_json is registered from 0.32.0 on; 0.28.0 does not know it.
vllm serve Qwen/Qwen3-8B \
  --enable-auto-tool-choice \
  --tool-call-parser=qwen3_json
