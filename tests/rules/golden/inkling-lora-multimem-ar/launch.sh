#!/bin/sh
# servelint: vllm=0.33.0
# LoRA on Inkling with the fused multimem all-reduce left on.
vllm serve ../../../conformance/rules/models/inkling --enable-lora
