#!/bin/bash
# vllm serve Qwen/Qwen3-8B --port 8000   (commented out)
#SBATCH --gres=gpu:4
echo "Run: vllm serve Qwen/Qwen3-8B --port 8000"
vllm bench serve --model Qwen/Qwen3-8B --port 8000
vllm chat --url http://localhost:8000/v1
vllm --version
pkill -f "vllm serve"
trl vllm-serve --model Qwen/Qwen3-8B
lighteval vllm "pretrained=$MODEL,dtype=float16,tensor_parallel_size=4" "lighteval|gsm8k|0|0"
python -c "import vllm; print(vllm.__version__)"
python serve.py --model Qwen/Qwen3-8B
docker run --rm python:3.12 pip install vllm
ps aux | grep "vllm serve"
