"""The event log of matches: the append-only, hash-chained store, its chain, snapshots of
states, and the projections rebuilt from it (docs/event-store.md)."""
