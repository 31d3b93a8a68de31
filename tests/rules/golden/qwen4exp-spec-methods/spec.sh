#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/qwen4exp --speculative-config '{"method": "suffix"}'
vllm serve ../../../conformance/rules/models/qwen4exp --speculative-config.method extract_hidden_states --speculative-config.num_speculative_tokens 1
# The native MTP layers and the n-gram proposers: silent.
vllm serve ../../../conformance/rules/models/qwen4exp --speculative-config '{"method": "mtp", "num_speculative_tokens": 1}'
vllm serve ../../../conformance/rules/models/qwen4exp --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 3}'
vllm serve ../../../conformance/rules/models/qwen4exp --speculative-config '{"method": "ngram_gpu", "num_speculative_tokens": 3}'
