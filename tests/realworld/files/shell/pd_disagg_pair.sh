#!/bin/bash
# Prefill/decode disaggregation on one 2-GPU box, NIXL between the two.
set -xe
MODEL=meta-llama/Llama-3.2-1B-Instruct

CUDA_VISIBLE_DEVICES=0 VLLM_NIXL_SIDE_CHANNEL_PORT=5600 vllm serve $MODEL \
  --port 8100 \
  --max-model-len 8192 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}' \
  > prefill.log 2>&1 &

CUDA_VISIBLE_DEVICES=1 VLLM_NIXL_SIDE_CHANNEL_PORT=5601 vllm serve $MODEL \
  --port 8200 \
  --max-model-len 8192 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}' \
  > decode.log 2>&1 &

wait
