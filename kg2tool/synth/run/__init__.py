"""Running synthesis: the per-shard synthesizer, shards and workers with checkpoints, and the pipeline that writes the dataset."""
