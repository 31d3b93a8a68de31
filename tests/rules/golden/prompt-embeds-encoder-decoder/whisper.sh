#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/whisper --enable-prompt-embeds
vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-prompt-embeds
