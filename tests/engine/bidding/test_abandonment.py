"""A starter who abandons before opening (decision X-6b), in live play and in records alike:
the restarted round opens at `next_live(leaver, d)`, `d` the direction of the abandoned round
as its record gives it; the direction of the round before plays no part."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cacho.engine.bidding import (
    Abandon,
    CallDudo,
    Event,
    MatchState,
    PlaceBid,
    PlayerAbandoned,
    StartRound,
    decide,
    event_from_dict,
    event_to_dict,
    evolve,
    initial_state,
    replay,
    replay_record,
    start_match,
    write_record,
)
from cacho.engine.bidding.commands import Command, TimeOut
from cacho.engine.errors import RuleError

PLAYERS = ["A", "B", "C", "D"]
HAND = (2, 3, 4, 5, 6)


def _play(state: MatchState, log: list[Event], *commands: Command) -> MatchState:
    for command in commands:
        for event in decide(state, command):
            log.append(event)
            state = evolve(state, event)
    return state


def _second_round_in_ccw() -> tuple[MatchState, list[Event]]:
    """cacho-online: A opens round 1 counter-clockwise and D loses the dudo, so D starts
    round 2, which inherits ccw until its opening bid."""
    first = start_match("cacho-online", PLAYERS, starter="A")
    log: list[Event] = [first]
    state = _play(
        initial_state(first),
        log,
        StartRound((HAND, HAND, HAND, HAND)),
        PlaceBid("A", 2, 3, direction="ccw"),
        CallDudo("D"),
        StartRound((HAND, HAND, HAND, HAND[:4])),
    )
    assert state.round is not None and state.round.starter == 3 and state.round.bid is None
    assert state.direction == "ccw"
    return state, log


def test_live_the_unopened_round_runs_in_the_direction_it_inherited() -> None:
    state, log = _second_round_in_ccw()
    state = _play(state, log, Abandon("D"))
    abandoned = log[-1]
    assert isinstance(abandoned, PlayerAbandoned)
    assert abandoned.direction == "ccw" and abandoned.next_starter == "C"
    # the record says which direction the engine used, and replaying it agrees
    record = json.loads(json.dumps(write_record(log)))
    assert record["rounds"][1]["direction"] == "ccw"
    outcome = replay_record(record)
    assert outcome["valid"] is True
    assert outcome["rounds"][1]["next_starter"] == "C"


def test_a_recorded_direction_overrides_the_inherited_one() -> None:
    state, log = _second_round_in_ccw()
    state = _play(state, log, Abandon("D", direction="cw"))
    abandoned = log[-1]
    assert isinstance(abandoned, PlayerAbandoned)
    assert abandoned.direction == "cw" and abandoned.next_starter == "A"
    # the abandoned round was clockwise: a timed-out opening of the next round keeps that
    assert state.direction == "cw" and replay(log) == state
    state = _play(state, log, StartRound((HAND, HAND, HAND, ())), TimeOut("A"))
    assert state.round is not None and state.round.direction == "cw"
    record = json.loads(json.dumps(write_record(log)))
    assert [r["direction"] for r in record["rounds"]] == ["ccw", "cw", "cw"]
    assert replay_record(record)["valid"] is True


def test_the_direction_of_an_opened_round_is_not_the_leavers_to_change() -> None:
    state, log = _second_round_in_ccw()
    state = _play(state, log, PlaceBid("D", 2, 3, direction="cw"))
    with pytest.raises(RuleError) as refused:
        decide(state, Abandon("B", direction="ccw"))
    assert refused.value.code == "direction-not-choosable"
    (event,) = decide(state, Abandon("B", direction="cw"))
    assert isinstance(event, PlayerAbandoned) and event.direction == "cw"


def test_a_ruleset_without_a_choice_refuses_ccw() -> None:
    first = start_match("dudo", PLAYERS[:3], starter="A")
    state = _play(initial_state(first), [], StartRound((HAND, HAND, HAND)))
    with pytest.raises(RuleError) as refused:
        decide(state, Abandon("A", direction="ccw"))
    assert refused.value.code == "direction-not-choosable"


def test_a_stored_abandonment_without_a_direction_keeps_the_rounds() -> None:
    """Events stored before PlayerAbandoned carried its direction still replay."""
    state, log = _second_round_in_ccw()
    (event,) = decide(state, Abandon("D"))
    stored: dict[str, Any] = event_to_dict(event)
    del stored["direction"]
    old = event_from_dict(stored)
    assert isinstance(old, PlayerAbandoned) and old.direction is None
    assert evolve(state, old).direction == "ccw"
    assert replay([*log, old]).direction == "ccw"
