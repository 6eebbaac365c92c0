"""Optional model paraphrases of questions, and the filter that keeps a rewrite only if it asks the same question."""
