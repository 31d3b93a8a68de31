"""``LoRAConfig``: LoRA launches vLLM refuses."""
