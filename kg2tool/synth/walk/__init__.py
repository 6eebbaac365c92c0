"""The walker: seeded sampling of query plans from the graph, one sampler per shape."""
