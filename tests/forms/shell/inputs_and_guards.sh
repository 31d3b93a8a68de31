#!/usr/bin/env bash
# Required env vars: MODEL, TP, PORT, REVISION, MAX_MODEL_LEN, DTYPE.
: "${MODEL:?set MODEL}"
[ -z "$TP" ] && exit 1
if [ -z "$PORT" ]; then
  echo "PORT is required" >&2
  exit 1
fi
[ -n "$REVISION" ] || { echo "REVISION is required"; exit 1; }
for var in MAX_MODEL_LEN DTYPE; do
  if [ -z "${!var}" ]; then echo "$var is required"; exit 1; fi
done
vllm serve "$MODEL" -tp "$TP" --port "$PORT" --revision "$REVISION" \
  --max-model-len "$MAX_MODEL_LEN" --dtype "$DTYPE" --seed "$SEED"
# The runner passes them through to the container.
docker run -e MODEL -e TP vllm/vllm-openai:v0.9.0 --model "$MODEL" -tp "$TP"
set -u
exec vllm serve "$MODEL" --api-key "$API_KEY" "$@"
