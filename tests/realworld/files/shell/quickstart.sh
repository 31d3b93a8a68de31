#!/bin/sh
# Quick start from the workshop handout: a small instruct model on one GPU.
vllm serve Qwen/Qwen2.5-1.5B-Instruct --dtype auto --api-key token-workshop-42
