#!/usr/bin/env bash
set -e

vllm serve meta-llama/Llama-3.1-8B-Instruct \
    --host 0.0.0.0 --port 8000 \
	--gpu-memory-utilization 0.9 \
--max-num-seqs 256 \
    --disable-log-requests  # a comment after the last flag

echo done
