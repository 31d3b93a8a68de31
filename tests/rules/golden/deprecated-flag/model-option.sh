#!/bin/sh
# servelint: vllm=0.33.0
vllm serve --model Qwen/Qwen3-8B --mamba-cache-mode align
