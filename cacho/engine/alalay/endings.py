"""When an Alalay match ends after a box is filled or an entry leaves (AL-9)."""

from __future__ import annotations

from cacho.engine.alalay.events import MatchEnded
from cacho.engine.alalay.scorecard import has_four_in_every_number, has_panza_de_oro, is_full_card
from cacho.engine.alalay.state import State


def end_after_entry(state: State, seat: int) -> MatchEnded | None:
    """End conditions 2-4 after a box entry (or 4 after an abandonment), in order (AL-9)."""
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
    return None
