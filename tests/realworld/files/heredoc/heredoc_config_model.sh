#!/usr/bin/env bash
# The whole launch is described by the generated file.
cat > /tmp/gemma.yaml <<'CFG'
model: google/gemma-3-1b-it
max-model-len: 32768
dtype: float16
port: 8010
CFG
vllm serve --config /tmp/gemma.yaml
