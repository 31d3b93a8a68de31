#!/bin/bash
vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2 --max-model-len=32768 --enforce-eager
