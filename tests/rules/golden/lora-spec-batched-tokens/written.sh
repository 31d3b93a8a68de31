#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/llama --enable-lora --speculative-config '{"method": "ngram", "num_speculative_tokens": 8}' --max-num-batched-tokens 2048 --max-num-seqs 256
