#!/usr/bin/env bash
# Pinned environment for the speculative-decoding study.
python -m venv .venv-spec
. .venv-spec/bin/activate
pip install vllm==0.25.0

vllm serve meta-llama/Llama-3.2-1B-Instruct \
  --speculative-config.method ngram \
  --speculative-config.num-speculative-tokens 2 \
  --speculative-config.prompt_lookup_max 4
