#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/llama --chat-template ./tool_chat.jinja --enable-auto-tool-choice --tool-call-parser hf
vllm serve ../../../conformance/models/llama --chat-template ./tool_chat.jinja --reasoning-parser hf
# not reported
vllm serve ../../../conformance/models/llama --chat-template ./tool_chat.jinja --enable-auto-tool-choice --tool-call-parser hermes
