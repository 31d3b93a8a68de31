#!/bin/bash
# Legacy benchmark box, kept on the release the paper numbers came from.
pip install vllm==0.8.5

vllm serve Qwen/Qwen2.5-1.5B-Instruct \
  --num-scheduler-steps 8 \
  --swap-space 8 \
  --disable-log-requests \
  --max-model-len 4096
