"""``ModelConfig``: what the model's own config.json allows (length, dtype)."""
