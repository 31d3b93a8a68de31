#!/bin/sh
# servelint: vllm=0.33.0
vllm serve Qwen/Qwen3-8B --config serve.json
vllm serve Qwen/Qwen3-8B --config a.yaml --config b.yaml
