#!/bin/bash
# podman with CDI GPUs; same arguments as the docker version.
podman run --rm --device nvidia.com/gpu=all \
  -p 8080:8000 \
  docker.io/vllm/vllm-openai:v0.28.0 \
  google/gemma-2-9b \
  --max-model-len 8192 \
  --disable-log-requests
