#!/bin/sh
pip install vllm==0.8.5
# --use-replayssm arrived later; --max-model-length is a typo.
vllm serve facebook/opt-125m --use-replayssm --max-model-length 4096
