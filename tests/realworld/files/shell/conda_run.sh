#!/bin/bash
# Start the server from the shared conda env on the lab box.
conda run -n vllm-0 --no-capture-output \
  vllm serve microsoft/Phi-4-mini-instruct \
  --enable-prefix-cache \
  --max-model-len 16384 \
  --port 8010
