"""kg2tool: knowledge graph -> execution-verified tool-use data -> trained and scored models."""

__version__ = "0.1.0"
