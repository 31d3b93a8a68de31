# Exported shell cells from "serving_quickstart.ipynb"
# --- cell 2 ---
pip install -q vllm openai
# --- cell 3 ---
nohup vllm serve Qwen/Qwen2.5-0.5B-Instruct --max-model-len 4096 --gpu-memory-utilization 0.6 > server.log 2>&1 &
# --- cell 4 ---
sleep 60; tail -n 20 server.log
# --- cell 5 ---
curl http://localhost:8000/v1/models
