#!/bin/bash
cd "$(dirname "$0")"
vllm serve --config vllm_config.yaml --port 8000
