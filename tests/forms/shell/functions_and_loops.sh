#!/bin/bash
start_server() {
  local gpu=$1 port=$2
  CUDA_VISIBLE_DEVICES=$gpu vllm serve "$MODEL" --port "$port" --max-model-len "$MAX_LEN" &
}
MODEL=Qwen/Qwen3-8B
MAX_LEN=16384
for i in 0 1 2 3; do
  start_server "$i" $((8000 + i))
done
for gpu in 4 5; do
  vllm serve "$MODEL" --port "$((9000 + gpu))" &
done
while true; do sleep 10; done
