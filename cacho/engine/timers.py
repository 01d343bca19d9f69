"""Turn length shared by every ruleset (docs/rules.md §9, decisions CO-7 and P-1)."""

from __future__ import annotations

DEFAULT_TURN_SECONDS = 30
FAST_TURN_SECONDS = 5
TIMEOUTS_BEFORE_FAST_TURNS = 3


def turn_seconds(timeouts_in_a_row: int, base_seconds: int = DEFAULT_TURN_SECONDS) -> int:
    """A player's turn lasts the match's turn time, or 5 s after three timed-out turns in a row
    until they act again."""
    return FAST_TURN_SECONDS if timeouts_in_a_row >= TIMEOUTS_BEFORE_FAST_TURNS else base_seconds
