"""Rules about how vLLM's server is started: the entry point itself."""
