"""Table talk: the players' chat and the spectators' chat of every match (docs/table-talk.md)."""
