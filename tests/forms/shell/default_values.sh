#!/bin/bash
TP=${TP:-4}
: "${GPU_UTIL:=0.85}"
vllm serve ${MODEL:-meta-llama/Llama-3.1-8B-Instruct} \
  --tensor-parallel-size $TP \
  --gpu-memory-utilization "$GPU_UTIL" \
  --max-model-len ${MAX_LEN:-"32k"} \
  --port ${PORT-8000}
