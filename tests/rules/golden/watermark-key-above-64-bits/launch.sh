#!/bin/sh
# servelint: vllm=0.33.0
# 2**64 does not fit in the Philox key.
vllm serve ../../../conformance/models/llama \
  --watermark-config '{"key": 18446744073709551616}'
