#!/bin/bash
# MODEL_PATH and TP are never set: a warning on the model and on the value,
# none on the flag name built from a variable, none for $HOME.
vllm serve $MODEL_PATH \
  --tensor-parallel-size "$TP" \
  --$FLAG_NAME 1 \
  --download-dir $HOME/models \
  --max-model-len=${MAX_LEN} \
  --port ${PORT:?set PORT}
