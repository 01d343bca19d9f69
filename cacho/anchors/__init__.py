"""Each match's chain head anchored outside the match (docs/event-store.md "Anchors")."""
