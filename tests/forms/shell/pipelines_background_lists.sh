#!/bin/bash
vllm serve Qwen/Qwen3-0.6B --port 8000 2>&1 | tee vllm.log &
pip install vllm==0.28.0 && vllm serve Qwen/Qwen3-0.6B --port 8001 || echo failed
(cd /models && vllm serve ./qwen --port 8002) &
! vllm serve Qwen/Qwen3-0.6B --port 8003 > /dev/null
