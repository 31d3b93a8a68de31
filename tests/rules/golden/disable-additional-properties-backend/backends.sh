#!/bin/sh
# servelint: vllm=0.33.0
# refused while parsing: the oracle reports it as SystemExit(2)
vllm serve ../../../conformance/models/llama --structured-outputs-config '{"disable_additional_properties": true}'
vllm serve ../../../conformance/models/llama --structured-outputs-config.backend xgrammar --structured-outputs-config.disable_additional_properties true
# accepted
vllm serve ../../../conformance/models/llama --structured-outputs-config '{"backend": "guidance", "disable_additional_properties": true}'
