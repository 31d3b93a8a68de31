#!/bin/bash
# Copied from our 2024 runbook; JSON-mode requests need a guided backend.
vllm serve meta-llama/Llama-3.2-1B-Instruct \
    --guided-decoding-backend xgrammar \
    --num-scheduler-steps 8 \
    --swap-space 16 \
    --max-model-len 8192
