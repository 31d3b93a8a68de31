#!/bin/bash
docker run --runtime nvidia --gpus '"device=0"' \
    -v ~/.cache/huggingface:/root/.cache/huggingface \
    --env "HUGGING_FACE_HUB_TOKEN=$HF_TOKEN" -e NCCL_P2P_DISABLE=1 \
    -p 8000:8000 --ipc=host --shm-size 16g --name vllm --rm -it \
    vllm/vllm-openai:v0.28.0 \
    --model Qwen/Qwen2.5-7B-Instruct \
    --max_model_len 1024 --api-key "test_api_key"
