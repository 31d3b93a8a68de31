#!/usr/bin/env bash
# servelint: vllm=0.33.0
# A misspelt --reasoning-parser: the engine config looks it up (the oracle
# gives this message with a model that has a tokenizer, 0.25.0-0.33.0).
vllm serve ../../../conformance/rules/models/llama-tokenizer --reasoning-parser qwen33
