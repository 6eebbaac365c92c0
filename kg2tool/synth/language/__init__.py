"""English: the relation lexicon, entity kinds, grammar, public vocabularies' wordings, plans said as phrases, and the templates' rendering."""
