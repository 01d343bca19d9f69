"""Open tables: casual matches a player opens in the lobby, seats taken by players (or
filled with bots) before the match exists (docs/lobby.md, "Open tables")."""
