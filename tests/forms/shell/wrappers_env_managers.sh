#!/bin/bash
# Environment managers and process wrappers in front of the launch.
hatch run -- vllm serve Qwen/Qwen3-0.6B --port 8100
hatch run serve:vllm serve Qwen/Qwen3-0.6B --port 8101
hatch -e gpu run python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-0.6B --port 8102
hatch env run -e gpu -- vllm serve Qwen/Qwen3-0.6B --port 8103
poetry run vllm serve Qwen/Qwen3-0.6B --port 8104
pipenv run python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-0.6B --port 8105
pixi run -e cuda vllm serve Qwen/Qwen3-0.6B --port 8106
conda run -p /opt/envs/vllm --no-capture-output vllm serve Qwen/Qwen3-0.6B --port 8107
srun --ntasks=1 --gres=gpu:4 -N 1 --export=ALL stdbuf -oL nice -n 5 vllm serve Qwen/Qwen3-0.6B --port 8108
exec numactl --cpunodebind=0 --membind=0 taskset -c 0-15 vllm serve Qwen/Qwen3-0.6B --port 8109
