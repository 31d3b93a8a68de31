#!/bin/bash
source ./.env
set -a; . ./deploy.env; set +a
vllm serve "$MODEL" --tensor-parallel-size "$TP"
