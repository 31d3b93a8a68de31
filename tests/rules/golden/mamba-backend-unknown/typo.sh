#!/bin/sh
# servelint: vllm=0.33.0
vllm serve nvidia/Nemotron-H-8B-Base-8K --mamba-backend flash-infer
