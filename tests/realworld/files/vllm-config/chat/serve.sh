#!/bin/bash
cd "$(dirname "$0")"
vllm serve meta-llama/Llama-3.2-1B-Instruct --config config.yaml --port 8000
