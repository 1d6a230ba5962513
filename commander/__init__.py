"""Master & Commander: gold market, economy, conflicts, decks (RULES.md §4). Not yet built."""
