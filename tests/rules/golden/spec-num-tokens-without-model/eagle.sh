#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/llama --speculative-config '{"method": "eagle3", "num_speculative_tokens": 3}'
