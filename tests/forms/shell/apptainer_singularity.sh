#!/bin/bash
apptainer exec --nv --cleanenv --env HF_HOME=/data/hf,VLLM_USE_V1=1 \
  -B /data:/data docker://vllm/vllm-openai:v0.28.0 \
  vllm serve /data/models/qwen --port 8000
singularity run --nv docker://vllm/vllm-openai:v0.28.0 --model Qwen/Qwen3-8B
