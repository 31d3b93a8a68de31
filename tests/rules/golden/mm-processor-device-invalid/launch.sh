#!/bin/sh
# servelint: vllm=0.33.0
# A negative device index is no torch device, nor a padded name.
vllm serve ../../../conformance/rules/models/whisper --mm-processor-kwargs '{"device": "cuda:-1"}'
vllm serve ../../../conformance/rules/models/whisper --mm-processor-kwargs.device ' cpu'
# Well-formed devices are fine; a text-only model ignores the key.
vllm serve ../../../conformance/rules/models/whisper --mm-processor-kwargs '{"device": "cpu:0"}'
vllm serve ../../../conformance/models/llama --mm-processor-kwargs '{"device": "cuda:-1"}'
