#!/bin/bash
# MI300X node.  The ROCm image runs the OpenAI server module as its entry point.
docker run -it --rm \
  --device /dev/kfd --device /dev/dri --group-add video \
  --security-opt seccomp=unconfined \
  -p 8000:8000 \
  rocm/vllm-dev:main \
  --model meta-llama/Meta-Llama-3-70B-Instruct \
  --tensor-parallel-size 8 \
  --max-model-len 8192
