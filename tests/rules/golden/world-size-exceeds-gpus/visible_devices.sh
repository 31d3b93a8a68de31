#!/bin/sh
# servelint: vllm=0.33.0
export CUDA_VISIBLE_DEVICES=0,1
vllm serve Qwen/Qwen3-32B --tensor-parallel-size 4
