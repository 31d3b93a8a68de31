#!/bin/bash
/opt/venv/bin/python3.12 -u -W ignore -m vllm.entrypoints.openai.api_server --model m1
python3 -OO -X importtime -m vllm.entrypoints.openai.api_server --model m2
python -m vllm.entrypoints.cli.main serve m3 --port 8000
/usr/local/bin/vllm serve m4
.venv/bin/vllm serve m5
python -m vllm.entrypoints.api_server --model m6 --port 8000
