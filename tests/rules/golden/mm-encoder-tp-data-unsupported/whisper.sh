#!/bin/sh
# servelint: vllm=0.33.0
# Whisper's encoder has no data-parallel mode: vLLM falls back to weights.
vllm serve ../../../conformance/rules/models/whisper -tp 2 --mm-encoder-tp-mode data
# A text-only model: vLLM never reads the flag.
vllm serve meta-llama/Llama-3.1-8B-Instruct -tp 2 --mm-encoder-tp-mode data
