#!/bin/sh
cd "$(dirname "$0")"
exec vllm serve google/gemma-3-1b-it --config=config.yaml
