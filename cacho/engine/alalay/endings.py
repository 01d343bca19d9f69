"""When an Alalay match ends after a box is filled or an entry leaves (AL-9)."""

from __future__ import annotations

from cacho.engine.alalay.events import MatchEnded
from cacho.engine.alalay.scorecard import has_four_in_every_number, has_panza_de_oro, is_full_card
from cacho.engine.alalay.state import State

# The reason of a match that an abandonment (or a disqualification) left with one entry.
LAST_STANDING = "last-standing"


def end_after_entry(state: State, seat: int) -> MatchEnded | None:
    """End conditions 2-4 after a box entry at `seat`, in order (AL-9); with `seat` -1 (an
    entry left, or a ruling changed a total), condition 4, then the last entry standing (P-3)."""
    if seat >= 0:
        card = state.cards[seat]
        name = state.entries[seat].name
        if has_panza_de_oro(card):
            return MatchEnded((name,), "panza-de-oro")
        if has_four_in_every_number(card):
            return MatchEnded((name,), "four-in-every-number")
    live = [s for s in range(len(state.entries)) if not state.left[s]]
    if not live:
        return MatchEnded((), None)
    if all(is_full_card(state.cards[s]) for s in live):
        totals = state.totals  # less any referee's penalties
        best = max(totals[s] for s in live)
        return MatchEnded(tuple(state.entries[s].name for s in live if totals[s] == best), "points")
    if seat < 0 and len(live) == 1 and len(state.entries) > 1:
        # P-3: with nobody left to play against, the last entry standing wins at once, as in
        # the bidding games; playing its card out alone would decide nothing.
        return MatchEnded((state.entries[live[0]].name,), LAST_STANDING)
    return None
