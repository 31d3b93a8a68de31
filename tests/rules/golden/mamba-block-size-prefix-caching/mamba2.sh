#!/bin/sh
# servelint: vllm=0.33.0
# Prefix caching is off by default for attention-free models.
vllm serve mistralai/Mamba-Codestral-7B-v0.1 --mamba-block-size 256
