#!/bin/bash
bash <<EOF
vllm serve Qwen/Qwen3-8B --port 8000
