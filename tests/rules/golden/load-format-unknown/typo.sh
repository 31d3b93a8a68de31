#!/bin/sh
# servelint: vllm=0.33.0
# A typo: argparse accepts any string, vLLM fails only when it loads the weights.
vllm serve meta-llama/Llama-3.1-8B-Instruct --load-format safetensor
# bitsandbytes is no load format any more in 0.33.0 (it was up to 0.27.1).
vllm serve meta-llama/Llama-3.1-8B-Instruct --load-format bitsandbytes
# Formats are compared in lower case.
vllm serve meta-llama/Llama-3.1-8B-Instruct --load-format SAFETENSORS
vllm serve meta-llama/Llama-3.1-8B-Instruct --load-format runai_streamer
