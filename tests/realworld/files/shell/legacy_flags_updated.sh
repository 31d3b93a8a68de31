#!/bin/bash
# The runbook launch, updated: the structured-output backend moved into
# --structured-outputs-config, and multi-step scheduling is gone.
vllm serve meta-llama/Llama-3.2-1B-Instruct \
    --structured-outputs-config '{"backend": "xgrammar"}' \
    --max-model-len 8192
