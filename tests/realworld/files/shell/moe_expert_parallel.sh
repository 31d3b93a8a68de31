#!/usr/bin/env bash
# Expert parallelism across the 8-GPU node.
vllm serve Qwen/Qwen3-30B-A3B \
  --tensor-parallel-size 8 \
  --enable-expert-parallel \
  --max-model-len 32768 &

# dense model, same flags (copy-paste from the MoE script)
vllm serve meta-llama/Meta-Llama-3-70B-Instruct \
  --tensor-parallel-size 8 \
  --enable-expert-parallel \
  --max-model-len 8192 &
wait
