#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/whisper --mm-tensor-ipc torch_shm -tp 2
vllm serve ../../../conformance/rules/models/whisper --mm-tensor-ipc torch_shm
