#!/bin/sh
# servelint: vllm=0.33.0
# A DCP size that spans neither the PCP axis nor TP x PCP.
vllm serve ../../../conformance/models/deepseek-v3 \
  -tp 2 --prefill-context-parallel-size 2 --decode-context-parallel-size 3
