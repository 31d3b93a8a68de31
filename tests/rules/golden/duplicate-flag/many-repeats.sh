#!/bin/sh
# servelint: vllm=0.33.0
# A generated launch repeating one option 25 times: 20 findings, the 20th
# saying how many more repeats there are.
vllm serve Qwen/Qwen3-8B --port 8001 --port 8002 --port 8003 --port 8004 --port 8005 --port 8006 --port 8007 --port 8008 --port 8009 --port 8010 --port 8011 --port 8012 --port 8013 --port 8014 --port 8015 --port 8016 --port 8017 --port 8018 --port 8019 --port 8020 --port 8021 --port 8022 --port 8023 --port 8024 --port 8025 
