"""Talking to language models: the chat format, tool-call parsers and generation backends (heavy imports inside)."""
