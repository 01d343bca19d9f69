"""What a physical table's scorekeeper may enter now (docs/engine.md, "Physical tables").

Between rounds: the round's dice (a full round, played move by move), or its outcome; the
outcomes offered are exactly those `decide` accepts, each with what it does to the table.
During a round: the legal moves of the player on turn (`legal_actions`), a calza out of
turn where the ruleset has one, and an abandonment. The screen shows buttons only for
these, and `decide` judges what is sent anyway.
"""

from __future__ import annotations

from typing import Any

from cacho.engine.bidding.commands import RecordOutcome
from cacho.engine.bidding.decide import calza_refusal
from cacho.engine.bidding.legal import legal_actions
from cacho.engine.bidding.outcomes import CALLS, answered_seat, record_outcome
from cacho.engine.bidding.state import Direction, MatchState
from cacho.engine.errors import RuleError


def entry_options(state: MatchState) -> dict[str, Any]:
    players = state.config.players
    live = [players[seat] for seat in state.live_seats()]
    options: dict[str, Any] = {
        "phase": state.phase,
        "paused": state.paused is not None,
        "undo": state.config.physical and state.undo is not None and state.paused is None,
        "abandon": [],
        "outcomes": [],
        "dice": None,
        "next_round": None,
        "to_act": None,
        "legal": None,
        "calza_out_of_turn": [],
        "state_at_time": None,
    }
    if state.phase == "over" or state.paused is not None or not state.config.physical:
        return options
    options["abandon"] = live
    current = state.round
    if current is None:
        assert state.next_starter is not None
        choosable = state.rules.starter_chooses_direction
        directions: list[Direction] = ["cw", "ccw"] if choosable else [state.direction]
        options["next_round"] = {
            "number": state.rounds_started + 1,
            "starter": players[state.next_starter],
            "mode": state.next_mode,
            "directions": directions,
        }
        options["dice"] = {name: state.dice_counts[players.index(name)] for name in live}
        options["outcomes"] = outcomes_offered(state, directions)
        if owes_round(state):  # the round under way at the call (rules.md §9.1, T-6)
            options["state_at_time"] = options["dice"]
        return options
    to_act = players[current.to_act]
    options["to_act"] = to_act
    options["legal"] = legal_actions(state, to_act)
    options["calza_out_of_turn"] = [
        name for name in live if name != to_act and calza_refusal(state, current, players.index(name)) is None
    ]
    return options


def owes_round(state: MatchState) -> bool:
    """Time was called and the round under way at the call (at a physical table, between
    two entries) is not entered yet: the scorekeeper may enter its state at time."""
    time = state.table.time
    return (
        time is not None
        and not time.decided
        and state.round is None
        and state.phase != "over"
        and state.rounds_started < time.round
    )


def outcomes_offered(state: MatchState, directions: list[Direction]) -> list[dict[str, Any]]:
    """Every outcome `decide` accepts now, with its consequences."""
    players = state.config.players
    found: list[dict[str, Any]] = []
    for call in CALLS:
        for seat in state.live_seats():
            caller = players[seat]
            for direction in directions:
                against = players[answered_seat(state, seat, direction)]
                sides: list[dict[str, Any]] = (
                    [{"exact": True}, {"exact": False}]
                    if call == "calza"
                    else [{"loser": caller}, {"loser": against}]
                )
                for side in sides:
                    command = RecordOutcome(call, caller, direction=direction, **side)  # type: ignore[arg-type]
                    try:
                        event = record_outcome(state, command)
                    except RuleError:
                        continue
                    found.append(
                        {
                            "call": call,
                            "by": caller,
                            "against": against,
                            "direction": direction,
                            **side,
                            "dice_change": dict(event.dice_change),
                            "eliminated": list(event.eliminated),
                            "next_starter": event.next_starter,
                            "next_mode": event.next_mode,
                            "winner": event.winner,
                        }
                    )
    return found
