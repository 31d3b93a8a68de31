#!/bin/sh
# servelint: vllm=0.33.0
# Pipeline stages on the single-process executor.
vllm serve ../../../conformance/models/llama \
  -pp 2 --distributed-executor-backend uni
