#!/bin/bash
# Different env settings per run.
export HF_HOME=/data/hf
VLLM_ATTENTION_BACKEND=FLASHINFER CUDA_VISIBLE_DEVICES=0,1 \
  vllm serve deepseek-ai/DeepSeek-V3 -tp 2 --max-model-len 16384 --trust-remote-code &
TOKENIZERS_PARALLELISM=false vllm serve google/gemma-3-1b-it --dtype float16 --port 8002 &
wait
