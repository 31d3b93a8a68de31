#!/bin/sh
# servelint: vllm=0.33.0
vllm serve Qwen/Qwen3-8B --config=serve.yaml
