#!/bin/bash
# Someone read the ReplaySSM blog post and tried it on Llama.
vllm serve meta-llama/Llama-3.2-1B-Instruct --use-replayssm --max-model-len 8192
