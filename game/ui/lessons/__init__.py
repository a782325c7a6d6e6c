"""A lesson on the play screen: the card, its ring and its steps."""
