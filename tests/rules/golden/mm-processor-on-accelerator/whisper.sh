#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/whisper --mm-processor-kwargs '{"device": "cuda:0"}'
vllm serve ../../../conformance/rules/models/whisper --mm-processor-kwargs '{"device": "cpu"}'
