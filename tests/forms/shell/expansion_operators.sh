#!/bin/bash
MODEL_PATH=/models/Qwen/Qwen3-8B-FP8
DTYPE=BFloat16
BASE_PORT=8000
vllm serve $MODEL_PATH --served-model-name ${MODEL_PATH##*/} \
  --tokenizer ${MODEL_PATH%-FP8} --dtype ${DTYPE,,} \
  --port $((BASE_PORT + 10)) --max-num-seqs $(( 2 * 64 )) \
  --model-impl ${IMPL/auto/vllm} --seed ${#DTYPE}
