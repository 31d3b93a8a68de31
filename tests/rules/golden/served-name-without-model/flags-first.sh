#!/bin/sh
# servelint: vllm=0.33.0
vllm serve --served-model-name qwen Qwen/Qwen3-8B
