#!/bin/sh
# servelint: vllm=0.33.0
# On a CUDA GPU vLLM 0.33.0 picks Model Runner V2, which Triton ReplaySSM lacks.
vllm serve nvidia/Nemotron-H-8B-Base-8K --use-replayssm
