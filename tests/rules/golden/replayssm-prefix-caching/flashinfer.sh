#!/bin/sh
# servelint: vllm=0.33.0
# FlashInfer ReplaySSM needs prefix caching off, which is on by default for hybrid models.
vllm serve nvidia/Nemotron-H-8B-Base-8K --use-replayssm \
  --mamba-backend flashinfer
