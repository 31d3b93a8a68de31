#!/bin/bash
# The container engine and the image come from the caller.
"$ENGINE" run --gpus all --name vllm-server -p 8000:8000 "$IMAGE" --model Qwen/Qwen3-0.6B
$DOCKER run --gpus all vllm/vllm-openai:v0.9.0 --model Qwen/Qwen3-0.6B
podman run --device nvidia.com/gpu=all vllm/vllm-openai:latest --model Qwen/Qwen3-0.6B
nerdctl run --gpus all vllm/vllm-openai:latest --model Qwen/Qwen3-0.6B
docker run --gpus all "$VLLM_IMAGE" --model Qwen/Qwen3-0.6B --max-model-len 4096
docker run --gpus all "$IMAGE" vllm serve Qwen/Qwen3-0.6B
docker run --gpus all "vllm/vllm-openai:${VLLM_TAG}" --model Qwen/Qwen3-0.6B
ENGINE2=podman
IMAGE2=vllm/vllm-openai:v0.10.0
$ENGINE2 run "$IMAGE2" --model Qwen/Qwen3-0.6B
# Not launches: nothing says this container runs vLLM.
docker run --gpus all "$IMAGE" --model-id bigscience/bloom
"$ENGINE" run "$IMAGE" python train.py
