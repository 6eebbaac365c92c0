"""Synthesis: tools from relations, walks to query plans, traces, rendering, verification, the pipeline."""
