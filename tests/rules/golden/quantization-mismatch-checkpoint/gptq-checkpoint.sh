#!/bin/sh
# servelint: vllm=0.27.1
vllm serve ../../../conformance/top25/models/llama-gptq -q awq_marlin
