#!/bin/bash
kv_port=21001
ASYNC=true
vllm serve meta-llama/Llama-3.1-8B-Instruct \
  --speculative-config '{"method": "ngram", "num_speculative_tokens": 5}' \
  --kv-transfer-config \
  "{\"kv_connector\":\"P2pNcclConnector\",\"kv_port\":\"$kv_port\",\"enable_async\":$ASYNC}" \
  --compilation-config='{"cudagraph_mode": "PIECEWISE"}'
