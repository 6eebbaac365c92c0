"""Query plans (the trees of graph operations every row derives from) and the per-entity indexes walks and wording read."""
