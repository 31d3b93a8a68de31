#!/bin/bash
if [ "$SIZE" = "big" ]; then
  TP=8
else
  TP=2
fi
if [ -z "$MODEL" ]; then
  MODEL=Qwen/Qwen3-8B
fi
case "$ROLE" in
  prefill) PORT=8100 ;;
  decode)  PORT=8200 ;;
esac
vllm serve "$MODEL" --tensor-parallel-size $TP --port $PORT
