#!/bin/bash
# Launch helper used by our CI runners.
#
# Required env vars:
#   MODEL          Hugging Face id or local path of the model to serve
#   TP             tensor parallel size
#   MAX_MODEL_LEN  context length to allocate KV cache for
# Optional:
#   PORT           defaults to 8000

for var in MODEL TP MAX_MODEL_LEN; do
  if [ -z "${!var}" ]; then
    echo "error: $var is not set" >&2
    exit 1
  fi
done

vllm serve "$MODEL" \
  --tensor-parallel-size "$TP" \
  --max-model-len "$MAX_MODEL_LEN" \
  --port "${PORT:-8000}" \
  --trust-remote-code
