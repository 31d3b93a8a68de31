#!/usr/bin/env bash
# servelint: vllm=0.33.0
# `base_model` for `base_model_name` (the oracle gives this message as an
# argparse error, 0.25.0-0.33.0).
vllm serve ../../../conformance/models/llama --enable-lora \
  --lora-modules sql=/loras/sql '{"name": "chat", "path": "/loras/chat", "base_model": "llama"}'
