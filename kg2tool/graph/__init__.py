"""Loading RDF graphs: the in-memory KnowledgeGraph and the on-disk store for large graphs."""
