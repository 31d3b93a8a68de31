#!/bin/sh
# servelint: vllm=0.33.0
# Trying to serve GPT-OSS without a reasoning parser: vLLM's hook puts openai_gptoss back.
vllm serve ../../../conformance/rules/models/gpt-oss --reasoning-parser none
vllm serve ../../../conformance/rules/models/gpt-oss --structured-outputs-config '{"reasoning_parser": ""}'
vllm serve ../../../conformance/rules/models/gpt-oss --reasoning-parser openai_gptoss
