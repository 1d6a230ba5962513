"""Ce soir, à Samarra: two players, hidden roles (RULES.md §3). Not yet built."""
