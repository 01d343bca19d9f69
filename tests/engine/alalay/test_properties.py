"""Property tests: random legal play (random dice, random legal choices)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cacho.engine.alalay import (
    Entry,
    Event,
    Options,
    RollRequest,
    Score,
    Scratch,
    State,
    TurnDie,
    apply,
    auto_play,
    auto_play_turn,
    decide,
    event_from_dict,
    event_to_dict,
    new_match,
    replay,
    replay_record,
    write_record,
)
from cacho.engine.alalay.scorecard import BOX_INDEX, BOXES, MAX_POINTS, box_points, is_full_card
from cacho.engine.errors import RuleError

from .helpers import random_step


def probe_illegal(state: State) -> None:
    """Illegal commands are refused with a code and change nothing."""
    turn = state.turn
    assert turn is not None
    entry = state.entries[turn.seat].name
    card = state.cards[turn.seat]
    before = state
    codes: list[tuple[Any, set[str]]] = []
    open_boxes = [b for b in BOXES if card[BOX_INDEX[b]] is None]
    if (
        turn.phase == "second"
        and not turn.must_turn
        and any(box_points(b, turn.dice, turn.de_mano) > 0 for b in open_boxes)
    ):
        codes.append((Scratch(entry, open_boxes[-1]), {"scratch-not-allowed"}))
    if turn.turned:
        codes.append((TurnDie(entry, turn.turned[0]), {"die-already-turned"}))
    if turn.must_turn:
        codes.append((Score(entry, open_boxes[0]), {"turn-required"}))
    filled = [b for b in BOXES if card[BOX_INDEX[b]] is not None and not b.startswith("grande")]
    if filled and turn.phase != "await" and not turn.must_turn:
        codes.append((Score(entry, filled[0]), {"box-not-open"}))
    for command, allowed in codes:
        with pytest.raises(RuleError) as info:
            decide(state, command)
        assert info.value.code in allowed
        assert state == before


def outcome(data: dict[str, Any]) -> tuple[Any, ...]:
    winner = data["winner"]
    winners = frozenset([winner] if isinstance(winner, str) else winner or [])
    return (data["finished"], data["win_reason"], winners, data["totals"], data["to_act"])


def live_outcome(state: State) -> tuple[Any, ...]:
    totals = {e.name: sum(v or 0 for v in card) for e, card in zip(state.entries, state.cards, strict=True)}
    return (state.over, state.win_reason, frozenset(state.winners), totals, state.to_act)


def check_record_round_trip(events: list[Event], state: State) -> None:
    written = write_record(events)
    out = replay_record(json.loads(json.dumps(written)))
    assert out["valid"] is True, (out, written)
    assert outcome(out) == live_outcome(state)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(1, 4),
    options=st.builds(Options, st.booleans(), st.booleans()),
    abandon_rate=st.sampled_from([0.0, 0.0, 0.004]),
    timeout_rate=st.sampled_from([0.0, 0.15]),
    teams=st.booleans(),
)
def test_random_legal_play(
    seed: int, players: int, options: Options, abandon_rate: float, timeout_rate: float, teams: bool
) -> None:
    rng = random.Random(seed)
    entries = [Entry(f"E{i}", ("x", "y", "z")[: 1 + i % 3] if teams else ()) for i in range(players)]
    state, events = new_match(entries, options, rng.randrange(players))
    cut = rng.randrange(1, 200)
    steps = 0
    while not state.over:
        probe_illegal(state)
        if timeout_rate and rng.random() < timeout_rate:
            state, more = auto_play_turn(state, lambda n: tuple(rng.randint(1, 6) for _ in range(n)))
        else:
            state, more = apply(state, random_step(state, rng, abandon_rate))
        events += more
        steps += 1
        assert replay(events) == state
        if steps == cut:
            check_record_round_trip(list(events), state)
        assert steps < 2000
    # A finished match: every live card full, or an instant win, or everyone left.
    if state.win_reason == "points":
        assert all(is_full_card(c) for c, left in zip(state.cards, state.left, strict=True) if not left)
        best = max(
            sum(v or 0 for v in c) for c, left in zip(state.cards, state.left, strict=True) if not left
        )
        assert all(sum(v or 0 for v in state.cards[state.seat_of(w) or 0]) == best for w in state.winners)
    elif state.win_reason is None:
        assert all(state.left) and state.winners == ()
    else:
        assert len(state.winners) == 1
    for winner in state.winners:
        seat = state.seat_of(winner)
        assert seat is not None and not state.left[seat]
    # Event store round trip, through JSON.
    stored = [event_from_dict(json.loads(json.dumps(event_to_dict(e)))) for e in events]
    assert stored == events
    assert replay(stored) == state
    check_record_round_trip(events, state)


def _points_after_turn(open_boxes: list[str], dice: tuple[int, ...], position: int) -> int:
    after = tuple(7 - d if i == position else d for i, d in enumerate(dice))
    return max(box_points(box, after, False) for box in open_boxes)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), options=st.builds(Options, st.booleans(), st.booleans()))
def test_auto_play_takes_the_best_choice_and_breaks_ties_in_order(seed: int, options: Options) -> None:
    """§9 P-2 at every step of random play: the best box (first in box order of equals), the
    best single turn (lowest position of equals), the lowest-value scratch (box order)."""
    rng = random.Random(seed)
    state, _ = new_match(["E0", "E1"], options, 0)
    while not state.over:
        turn = state.turn
        assert turn is not None
        open_boxes = [b for b in BOXES if state.cards[turn.seat][BOX_INDEX[b]] is None]
        step = auto_play(state)
        if turn.phase != "await":
            points = {box: box_points(box, turn.dice, turn.de_mano) for box in open_boxes}
            top = max(points.values())
            if turn.must_turn:
                gains = [_points_after_turn(open_boxes, turn.dice, p) for p in range(5)]
                assert step == TurnDie(turn_entry(state), gains.index(max(gains)))
            elif top > 0:
                assert step == Score(turn_entry(state), next(b for b in open_boxes if points[b] == top))
            elif turn.phase == "second":
                lowest = min(MAX_POINTS[b] for b in open_boxes)
                assert step == Scratch(
                    turn_entry(state), next(b for b in open_boxes if MAX_POINTS[b] == lowest)
                )
            else:
                assert step == RollRequest(turn_entry(state), reroll=True)
        state, _ = apply(state, random_step(state, rng))


def turn_entry(state: State) -> str:
    assert state.turn is not None
    return state.entries[state.turn.seat].name
