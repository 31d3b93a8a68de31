#!/bin/sh
# servelint: vllm=0.33.0
vllm serve --max-model-len 8192
