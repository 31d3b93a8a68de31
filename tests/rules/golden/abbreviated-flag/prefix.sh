#!/bin/sh
# servelint: vllm=0.33.0
vllm serve Qwen/Qwen3-8B --max-num-batched-token 8192
