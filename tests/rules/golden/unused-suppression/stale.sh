#!/bin/sh
# servelint: vllm=0.33.0
vllm serve Qwen/Qwen3-8B --max-model-len 8192  # servelint: ignore[unknown-flag] -- was --max-modl-len
