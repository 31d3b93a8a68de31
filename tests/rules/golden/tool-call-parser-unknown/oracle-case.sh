#!/usr/bin/env bash
# servelint: vllm=0.33.0
# A misspelt tool parser (vLLM's own validate_api_server_args, run by hand on
# 0.25.0-0.33.0, gives this message; the oracle stops before it).
vllm serve ../../../conformance/models/llama --enable-auto-tool-choice --tool-call-parser hermess
