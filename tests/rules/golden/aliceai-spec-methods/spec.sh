#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/aliceai --speculative-config '{"method": "extract_hidden_states", "num_speculative_tokens": 1}'
vllm serve ../../../conformance/rules/models/aliceai --speculative-config '{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 2}'
# Proposers without auxiliary hidden states: silent.
vllm serve ../../../conformance/rules/models/aliceai --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 3}'
# The draft model servelint cannot read: silent.
vllm serve ../../../conformance/rules/models/aliceai --speculative-config '{"model": "$DRAFT", "num_speculative_tokens": 2}'
