"""Master Citadel: four players' sealed bids on a shared pawn (RULES.md §2). Not yet built."""
