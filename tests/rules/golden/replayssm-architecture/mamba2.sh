#!/bin/sh
# servelint: vllm=0.33.0
vllm serve mistralai/Mamba-Codestral-7B-v0.1 --use-replayssm
