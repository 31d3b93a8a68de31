#!/bin/sh
# Container entry script: the model comes from the environment, every other
# flag from the container's arguments.
set -e
exec vllm serve "$MODEL" --host 0.0.0.0 --port "${PORT:-8000}" "$@"
