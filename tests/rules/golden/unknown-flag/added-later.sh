#!/bin/sh
# servelint: vllm=0.28.0
vllm serve Qwen/Qwen3-8B --disable-prefix-caching
