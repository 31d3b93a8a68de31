#!/bin/sh
pip install vllm==0.8.5
# vLLM 0.8.5 rejects --model after `vllm serve` while parsing.
vllm serve --model facebook/opt-125m --port 8000
