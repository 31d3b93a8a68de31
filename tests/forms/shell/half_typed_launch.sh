#!/bin/bash
MODEL=Qwen/Qwen3-8B
vllm serve $MODEL --tensor-parallel-size $(nproc --all
vllm serve $MODEL --max-model-len ${MAX_LEN:-
