"""The result of a match (`Game.results(events)`): placements as a competition ranking and
the figures tournaments break ties with, in seat order, for both games."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cacho.engine import alalay
from cacho.engine.bidding import PlayerAbandoned, RoundResolved
from cacho.engine.games import GAMES
from cacho.engine.results import SeatResult, competition_placements
from tests.engine.alalay.helpers import random_step
from tests.engine.bidding.test_properties import games, play

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _bidding_record(rounds: list[dict[str, Any]], **setup: Any) -> dict[str, Any]:
    return {
        "format": "cacho-match/1",
        "game": "dudo",
        "ruleset": "dudo",
        "players": ["A", "B", "C", "D"],
        "setup": {"dice": {"A": 2, "B": 1, "C": 1, "D": 2}, "starter": "A", **setup},
        "rounds": rounds,
    }


# A bids one two, B one four, C three fives; D calls dudo: one five, C's last die goes.
ROUND_ONE_ACTIONS = [
    {"by": "A", "bid": [1, 2]},
    {"by": "B", "bid": [1, 4]},
    {"by": "C", "bid": [3, 5]},
    {"by": "D", "call": "dudo"},
]


def _results(data: dict[str, Any]) -> tuple[SeatResult, ...]:
    game = GAMES[data["game"]]
    return game.results(game.record_events(data))


def test_competition_placements_skip_after_a_shared_place() -> None:
    assert competition_placements([[2], [0, 3], [1]]) == {2: 1, 0: 2, 3: 2, 1: 4}


def test_bidding_results_rank_by_exit_and_credit_the_resolution_winner() -> None:
    data = _bidding_record(
        [
            {
                "dice": {"A": [2, 3], "B": [4], "C": [5], "D": [6, 6]},
                "actions": ROUND_ONE_ACTIONS,
            },
            {
                "dice": {"A": [2, 3], "B": [4], "D": [6, 6]},
                "actions": [{"by": "D", "abandon": True}],
            },
            {
                "dice": {"A": [2, 4], "B": [4]},
                "actions": [{"by": "A", "bid": [1, 4]}, {"by": "B", "call": "calza"}],
            },
        ],
    )
    results = _results(data)
    assert [r.name for r in results] == ["A", "B", "C", "D"] and [r.seat for r in results] == [0, 1, 2, 3]
    # round 1: C's 3 fives fail, so D (the doubter) is credited with C
    # round 2: D leaves; round 3: B's calza on 1 four is wrong (2 fours): B is out, A credited
    by_name = {r.name: r for r in results}
    assert {name: r.placement for name, r in by_name.items()} == {"A": 1, "B": 2, "D": 3, "C": 4}
    assert {name: r.eliminations for name, r in by_name.items()} == {"A": 1, "B": 0, "C": 0, "D": 1}
    assert {name: r.dice_left for name, r in by_name.items()} == {"A": 2, "B": 0, "C": 0, "D": 0}
    assert [r.left for r in results] == [False, False, False, True]
    assert all(r.alalay_total is None and not r.instant_win for r in results)


def test_a_bidding_match_in_progress_ranks_the_players_still_in_together() -> None:
    data = _bidding_record(
        [
            {
                "dice": {"A": [2, 3], "B": [4], "C": [5], "D": [6, 6]},
                "actions": ROUND_ONE_ACTIONS,
            },
        ],
    )
    assert [r.placement for r in _results(data)] == [1, 1, 4, 1]


def test_players_out_from_the_setup_rank_last_together() -> None:
    data = _bidding_record([], dice={"A": 3, "B": 0, "C": 2, "D": 0})
    assert [r.placement for r in _results(data)] == [1, 3, 1, 3]


def _alalay_events(*commands: Any, players: Sequence[str] = ("A", "B", "C"), **cards: Any) -> list[Any]:
    state, events = alalay.new_match(list(players), cards=cards or None)
    for command in commands:
        state, more = alalay.apply(state, command)
        events += more
    return events


FULL_BUT_SIXES = {
    "ones": 3,
    "twos": 6,
    "threes": 9,
    "fours": 12,
    "fives": 15,
    "straight": 25,
    "full": 35,
    "four": 45,
    "grande_1": 0,
    "grande_2": 0,
}


def test_alalay_results_rank_winners_then_stayers_then_leavers_by_total() -> None:
    events = _alalay_events(
        alalay.Abandon("C"),
        alalay.Throw("A", (6, 6, 1, 2, 3)),
        alalay.Score("A", "sixes"),
        alalay.Throw("B", (6, 6, 1, 2, 3)),
        alalay.Score("B", "sixes"),
        A=FULL_BUT_SIXES,
        B=FULL_BUT_SIXES,
        C={**FULL_BUT_SIXES, "sixes": 30},
    )
    results = GAMES["alalay"].results(events)
    assert [(r.name, r.placement, r.alalay_total, r.left) for r in results] == [
        ("A", 1, 162, False),
        ("B", 1, 162, False),
        ("C", 3, 180, True),  # a leaver cannot win, whatever its total
    ]
    assert not any(r.instant_win for r in results)


def test_an_alalay_dormida_is_an_instant_win() -> None:
    events = _alalay_events(alalay.Throw("A", (4, 4, 4, 4, 4)))
    results = GAMES["alalay"].results(events)
    assert [(r.placement, r.instant_win) for r in results] == [(1, True), (2, False), (2, False)]


# ---------------------------------------------------------------- properties


def _is_competition_ranking(placements: list[int]) -> bool:
    """Each placement is 1 + the number of seats placed strictly ahead of it."""
    return all(p == 1 + sum(1 for q in placements if q < p) for p in placements)


@FAST
@given(games(), st.floats(min_value=0.0, max_value=0.08))
def test_bidding_placements_are_a_competition_ranking_of_exits(game: tuple[Any, ...], rate: float) -> None:
    ruleset, options, players, seed = game
    log: list[Any] = []
    out_at: dict[str, int] = {}
    left: set[str] = set()
    eliminations = 0
    for _before, _command, events, after in play(ruleset, options, players, seed, abandon_rate=rate):
        for event in events:
            log.append(event)
            if isinstance(event, RoundResolved):
                # An exit is credited to the other side of the resolution; a caller out on a
                # calzo of its own bid (after a paso) took its die from nobody.
                eliminations += sum(1 for name in event.eliminated if event.caller != event.target)
                out_at.update({name: len(log) for name in event.eliminated})
            elif isinstance(event, PlayerAbandoned):
                out_at[event.player] = len(log)
                left.add(event.player)
        results = GAMES["dudo"].results(log)
        assert [(r.seat, r.name) for r in results] == list(enumerate(players))
        placements = [r.placement for r in results]
        assert _is_competition_ranking(placements)
        assert [r.dice_left for r in results] == list(after.dice_counts)
        assert sum(r.eliminations for r in results) == eliminations
        assert {r.name for r in results if r.left} == left
        if after.winner is not None:
            assert [r.seat for r in results if r.placement == 1] == [after.winner]
        for r in results:
            if r.name not in out_at or r.seat == after.winner:
                continue
            for other in results:
                if other.seat == after.winner:
                    assert other.placement < r.placement
                elif other.name not in out_at or out_at[other.name] > out_at[r.name]:
                    assert other.placement < r.placement  # out later (or never): ahead
                elif out_at[other.name] == out_at[r.name]:
                    assert other.placement == r.placement


@FAST
@given(
    st.integers(0, 2**32 - 1),
    st.integers(1, 4),
    st.sampled_from([0.0, 0.01, 0.03]),
    st.sampled_from([0.0, 0.15]),
)
def test_alalay_placements_rank_winners_then_stayers_then_leavers(
    seed: int, players: int, abandon_rate: float, timeout_rate: float
) -> None:
    rng = random.Random(seed)
    state, events = alalay.new_match([f"E{i}" for i in range(players)], first=rng.randrange(players))
    while not state.over:
        if timeout_rate and rng.random() < timeout_rate:
            state, more = alalay.auto_play_turn(state, lambda n: tuple(rng.randint(1, 6) for _ in range(n)))
        else:
            state, more = alalay.apply(state, random_step(state, rng, abandon_rate))
        events += more
    results = GAMES["alalay"].results(events)
    assert [r.seat for r in results] == list(range(players))
    assert _is_competition_ranking([r.placement for r in results])
    assert [r.alalay_total for r in results] == list(state.totals)
    assert [r.left for r in results] == list(state.left)
    winners = {r.name for r in results if r.name in state.winners}
    if state.winners:
        assert {r.name for r in results if r.placement == 1} == winners == set(state.winners)
    instant = state.win_reason in ("dormida", "panza-de-oro", "four-in-every-number")
    assert {r.name for r in results if r.instant_win} == (winners if instant else set())
    for r in results:
        for other in results:
            if r.name in winners or other.name in winners:
                continue
            if r.left and not other.left:
                assert other.placement < r.placement  # whoever stayed ranks ahead of a leaver
            elif r.left == other.left and other.alalay_total is not None and r.alalay_total is not None:
                if other.alalay_total > r.alalay_total:
                    assert other.placement < r.placement
                elif other.alalay_total == r.alalay_total:
                    assert other.placement == r.placement
