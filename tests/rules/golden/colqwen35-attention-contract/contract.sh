#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/colqwen35
vllm serve ../../../conformance/rules/models/colqwen35-contract-conflict
# One valid declaration, or one --hf-overrides may add: silent.
vllm serve ../../../conformance/rules/models/colqwen35-bidirectional
vllm serve ../../../conformance/rules/models/colqwen35 --hf-overrides '{"retrieval_attention_contract": "causal"}'
