"""The result of an Alalay match from its events (`cacho.engine.results.SeatResult`).

The winners rank first; then the entries that stayed, by total (equal totals share a
place); then those who left, by total. A win by dormida, panza de oro or four in every
number is an instant win for its winner. Totals are less any referee's penalties;
disqualified entries place last; an award-result's places stand as given. A match
decided at time (docs/rules.md §9.1) ranks as one ended on points, its open boxes 0.
"""

from __future__ import annotations

from collections.abc import Sequence

from cacho.engine.alalay.at_time import AT_TIME
from cacho.engine.alalay.events import Event, MatchEnded
from cacho.engine.alalay.rules import replay
from cacho.engine.results import SeatResult, competition_placements
from cacho.engine.undo import without_undone

INSTANT_WIN_REASONS = frozenset({"dormida", "panza-de-oro", "four-in-every-number"})


def is_follower(event: Event) -> bool:
    """An event that comes with the entry before it (undone with it): a match's end."""
    return isinstance(event, MatchEnded)


def match_results(events: Sequence[Event]) -> tuple[SeatResult, ...]:
    """One `SeatResult` per seat (entry), in seat order, for the match these events hold."""
    state = replay(without_undone(events, is_follower))
    names = [entry.name for entry in state.entries]
    totals = state.totals
    winners = [seat for seat, name in enumerate(names) if name in state.winners]
    tiers: list[list[int]] = [winners] if winners else []
    ranked = set(winners) | state.disqualified
    for left in (False, True):
        group = [seat for seat in range(len(names)) if state.left[seat] == left and seat not in ranked]
        for total in sorted({totals[seat] for seat in group}, reverse=True):
            tiers.append([seat for seat in group if totals[seat] == total])
    if state.disqualified:
        tiers.append(sorted(state.disqualified))
    placement = competition_placements(tiers)
    if state.awarded is not None:
        placement = dict(enumerate(state.awarded))
    instant = state.win_reason in INSTANT_WIN_REASONS
    return tuple(
        SeatResult(
            seat=seat,
            name=name,
            placement=placement[seat],
            alalay_total=totals[seat],
            instant_win=instant and seat in winners,
            left=state.left[seat],
            at_time=state.win_reason == AT_TIME,
        )
        for seat, name in enumerate(names)
    )
