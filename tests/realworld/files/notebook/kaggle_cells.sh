# Exported from kaggle notebook "llm-inference-t4x2" (shell cells only)
# [cell 1]
pip install -q "vllm==0.31.0"
# [cell 4]
vllm serve meta-llama/Llama-3.2-1B-Instruct \
  --tensor-parallel-size 2 \
  --dtype half \
  --max-model-len 8192 \
  --enforce-eager \
  --max-num-seqs 16 &
# [cell 5]
sleep 120
