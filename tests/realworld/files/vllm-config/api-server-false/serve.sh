#!/bin/bash
cd "$(dirname "$0")"
python -m vllm.entrypoints.openai.api_server --model meta-llama/Llama-3.2-1B-Instruct --config cfg.yaml
