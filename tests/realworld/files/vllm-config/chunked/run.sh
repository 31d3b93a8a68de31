#!/usr/bin/env bash
cd "$(dirname "$0")"
vllm serve mistralai/Mistral-7B-Instruct-v0.1 --config config.yaml --port 8000
