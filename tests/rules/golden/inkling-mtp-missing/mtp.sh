#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/inkling \
  --speculative-config '{"method": "mtp", "num_speculative_tokens": 1}'
