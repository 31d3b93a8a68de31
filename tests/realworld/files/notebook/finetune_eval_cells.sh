# Shell cells exported from notebooks/03_eval_finetune.ipynb
# %%bash
export CKPT=./outputs/checkpoint-1200
# %%bash
python -m vllm.entrypoints.openai.api_server \
    --model ./outputs/checkpoint-1200 \
    --served-model-name ft-1200 \
    --max-model-len 4096 \
    --enable-lora \
    --max-loras 2 \
    --port 8000 &
# %%bash
sleep 90 && curl -s localhost:8000/v1/models
