#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/llama -tp 2 --speculative-config '{"model": "meta-llama/Llama-3.2-1B-Instruct", "num_speculative_tokens": 3, "draft_tensor_parallel_size": 4}'
