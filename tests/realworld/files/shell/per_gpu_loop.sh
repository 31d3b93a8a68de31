#!/bin/bash
# One single-GPU replica per device, behind the nginx upstream in ../lb/.
BASE_PORT=8000
for i in 0 1 2 3; do
  CUDA_VISIBLE_DEVICES=$i vllm serve Qwen/Qwen2.5-1.5B-Instruct \
    --port 8000 \
    --max-num-seqs 64 \
    --port $((BASE_PORT + i)) \
    > "replica_$i.log" 2>&1 &
done
wait
