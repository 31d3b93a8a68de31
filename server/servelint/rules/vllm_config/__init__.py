"""``VllmConfig``'s cross-checks (vllm/config/vllm.py): what one config class refuses given the others."""
