#!/bin/sh
# servelint: vllm=0.33.0
vllm serve meta-llama/Llama-3.1-8B-Instruct --runner pooling --convert none
# --convert auto adapts the model into an embedding model.
vllm serve meta-llama/Llama-3.1-8B-Instruct --runner pooling
vllm serve meta-llama/Llama-3.1-8B-Instruct --runner pooling --convert classify
