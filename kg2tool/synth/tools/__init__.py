"""Tools: function schemas derived from relations, the executor that runs them on the graph, and the tool styles (values, refs, batch)."""
