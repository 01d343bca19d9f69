"""`palifico_once_per_player` (decision DU-2): a player's Palifico is used only by a Palifico
round that their own drop to one die triggered inside the match; a setup carries no history."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cacho.engine.bidding import RoundResolved, initial_state, start_match
from cacho.engine.bidding.state import dropped_to_one
from tests.engine.bidding.test_properties import play

ONCE = {"palifico_once_per_player": True}


@pytest.mark.parametrize("mode", [None, "normal", "palifico"])
def test_a_setup_uses_nobodys_palifico(mode: str | None) -> None:
    started = start_match(
        "dudo", ["A", "B", "C"], starter="B", options=ONCE, dice={"A": 1, "B": 5, "C": 1}, mode=mode
    )
    assert started.palifico_used == ()
    assert initial_state(started).palifico_used == frozenset()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(min_value=2, max_value=6),
    st.integers(min_value=0, max_value=2**32),
    st.sampled_from([False, True]),
)
def test_each_player_triggers_one_palifico_round_at_most(count: int, seed: int, barring: bool) -> None:
    options: dict[str, Any] = {**ONCE, "no_palifico_or_calza_with_two_players": barring}
    players = [f"p{i}" for i in range(count)]
    used: set[int] = set()
    for before, _command, events, after in play("dudo", options, players, seed):
        for event in events:
            if not isinstance(event, RoundResolved) or event.next_mode is None:
                continue
            assert before is not None
            dropped = set(dropped_to_one(before.dice_counts, after.dice_counts))
            barred = barring and len(after.live_seats()) == 2
            fresh = dropped - used
            assert event.next_mode == ("palifico" if fresh and not barred else "normal")
            if event.next_mode == "palifico":
                used |= fresh
