#!/bin/sh
# servelint: vllm=0.28.0
# Up to 0.28.0 a missing field is an AttributeError, not this check: silent.
vllm serve ../../../conformance/rules/models/llama-bidirectional
vllm serve ../../../conformance/rules/models/llama-bidirectional-pooling-max
