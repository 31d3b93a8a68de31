#!/bin/bash
# Prefix caching off for the A/B run.
cd "$(dirname "$0")"
vllm serve Qwen/Qwen3-8B --config vllm.yaml
