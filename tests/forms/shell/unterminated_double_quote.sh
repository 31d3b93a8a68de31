#!/bin/bash
vllm serve Qwen/Qwen3-8B --port 8000 --served-model-name "qwen
echo after
