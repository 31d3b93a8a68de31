#!/bin/bash
MODEL=Qwen/Qwen3-8B
bash <<EOF
vllm serve $MODEL --port 8000
EOF
ssh gpu-node bash -s <<'REMOTE'
  vllm serve Qwen/Qwen3-0.6B \
    --port 9000
REMOTE
sbatch <<EOT
#!/bin/bash
#SBATCH --gres=gpu:1
srun vllm serve $MODEL --port 7000
EOT
