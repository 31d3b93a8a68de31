#!/bin/sh
# servelint: vllm=0.33.0
# TP is set here but not exported: the inner shell sees it empty.
TP=2
sh -c 'vllm serve Qwen/Qwen3-8B --tensor-parallel-size "$TP"'
# MODEL is an input (whoever runs the script sets it): nothing to report.
vllm serve "$MODEL" --tensor-parallel-size 2
