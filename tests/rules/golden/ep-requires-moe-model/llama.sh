#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/llama -tp 2 --enable-expert-parallel
