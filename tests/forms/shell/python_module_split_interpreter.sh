#!/bin/bash
# interpreter options split from the module over a continuation
python -u \
	-m vllm.entrypoints.openai.api_server \
	--model openai/gpt-oss-20b \
	--port 8001

python3 -m vllm.entrypoints.openai.api_server --model facebook/opt-125m --dtype half
