#!/bin/sh
# servelint: vllm=0.33.0
# Tables sharded across DP ranks that elastic EP may add or remove (the CPU oracle stops at EPLB's platform check: no oracle case).
vllm serve ../../../conformance/rules/models/deepseek-v41-engram \
  -dp 2 --enable-expert-parallel --enable-eplb --enable-elastic-ep \
  --engram-config '{"embedding_across_dp": true}'
