#!/bin/bash
# The old demo server, gone from the releases servelint judges this against.
# servelint: vllm=0.33.0
python3 -m vllm.entrypoints.api_server --model facebook/opt-125m \
    --port 8001 --max-model-len 2048
