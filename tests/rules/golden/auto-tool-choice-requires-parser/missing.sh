#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/llama --enable-auto-tool-choice
