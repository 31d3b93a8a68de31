#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The reasoning_parser of --structured-outputs-config, checked by the API
# server before it binds its port (validate_api_server_args).
vllm serve Qwen/Qwen3-8B --structured-outputs-config '{"backend": "xgrammar", "reasoning_parser": "deepseek-r1"}'
