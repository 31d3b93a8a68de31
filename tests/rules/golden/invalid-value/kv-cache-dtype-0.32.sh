#!/bin/sh
# servelint: vllm=0.32.0
# Up to 0.32.0 argparse checks the choices: invalid-value reports it, once.
vllm serve ../../../conformance/models/llama --kv-cache-dtype fp9
