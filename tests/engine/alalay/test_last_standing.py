"""P-3 (docs/rules.md §9): an entry left alone by the others' abandonments wins at once.

Over random matches with abandonments at any moment of a turn (hypothesis): the match ends
by the abandonment that leaves one entry, that entry first and the leavers behind it by
total; a match that starts with one entry plays on; the live state, its replay, its results
and its written record agree.
"""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cacho.engine.alalay import (
    Abandon,
    EntryAbandoned,
    Event,
    MatchEnded,
    apply,
    new_match,
    replay,
    replay_record,
    write_record,
)
from cacho.engine.alalay.results import match_results
from cacho.engine.alalay.scorecard import is_full_card

from .helpers import random_step


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(1, 5),
    abandon_rate=st.sampled_from([0.02, 0.1, 0.3]),
)
def test_an_abandonment_that_leaves_one_entry_ends_the_match_with_it_first(
    seed: int, players: int, abandon_rate: float
) -> None:
    rng = random.Random(seed)
    state, events = new_match([f"E{i}" for i in range(players)], first=rng.randrange(players))
    while not state.over:
        before = state
        state, more = apply(state, random_step(state, rng, abandon_rate))
        events += more
        if not isinstance(more[0], EntryAbandoned):
            continue
        live = [s for s in range(players) if not state.left[s]]
        if players > 1 and len(live) == 1 and not is_full_card(state.cards[live[0]]):
            winner = state.entries[live[0]].name
            assert more[-1] == MatchEnded((winner,), "last-standing")
            assert state.over and state.winners == (winner,) and state.turn is None
        elif players > 1 and len(live) > 1:
            assert not state.over or state.win_reason == "points"  # the others' cards full
        assert before.left.count(False) == len(live) + 1
    assert replay(events) == state
    assert players == 1 or state.winners, state  # nobody is left with every seat gone
    _results_rank_the_last_standing_first(events)
    _record_replays_to_the_same_end(events)


def _results_rank_the_last_standing_first(events: list[Event]) -> None:
    state = replay(events)
    if state.win_reason != "last-standing":
        return
    results = match_results(events)
    (first,) = [r for r in results if r.placement == 1]
    assert first.name == state.winners[0] and not first.left
    leavers = [r for r in results if r.left]
    assert len(leavers) == len(results) - 1
    for r in leavers:
        # the leavers behind it, by total (equal totals share a place)
        ahead = sum(1 for other in leavers if other.alalay_total > r.alalay_total)
        assert r.placement == 2 + ahead


def _record_replays_to_the_same_end(events: list[Event]) -> None:
    state = replay(events)
    out = replay_record(json.loads(json.dumps(write_record(events))))
    assert out["valid"] is True, out
    winner = out["winner"]
    winners = tuple([winner] if isinstance(winner, str) else winner or [])
    assert (out["finished"], out["win_reason"], set(winners)) == (True, state.win_reason, set(state.winners))


def test_a_match_of_one_entry_does_not_end_until_it_leaves() -> None:
    state, _ = new_match(["solo"])
    assert not state.over
    state, events = apply(state, Abandon("solo"))
    assert events[-1] == MatchEnded((), None) and state.winners == ()
