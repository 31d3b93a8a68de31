"""The OpenAI server's options: structured outputs and tool calling."""
