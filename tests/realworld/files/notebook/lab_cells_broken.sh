# Cells from lab4.ipynb (student copy)
# ---
pip install vllm
# ---
vllm serve google/gemma-3-1b-it --max_model_len 8192 --gpu_memory_utilization=0.8 --enforce-eager true --port 8000 &
# ---
sleep 45
