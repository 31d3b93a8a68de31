#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/whisper --mm-shm-cache-max-object-size-mb 256
vllm serve ../../../conformance/rules/models/whisper --mm-shm-cache-max-object-size-mb 256 --mm-processor-cache-type shm
# A text-only model: vLLM builds no multimodal config.
vllm serve meta-llama/Llama-3.1-8B-Instruct --mm-shm-cache-max-object-size-mb 256
