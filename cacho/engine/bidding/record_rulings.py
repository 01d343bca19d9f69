"""Referee rulings in a bidding record (docs/match-record.md, "Rulings"): an action
`{"ruling": {"kind": ..., ...params}, "reason": text}` where it happened, read back
through the same `decide` as in live play."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from cacho.engine.bidding.ruling_events import (
    DecidedAtTime,
    DiceChanged,
    PlayersSetAside,
    ResultAwarded,
    RoundVoided,
    RulingEvent,
    TimeCalled,
)
from cacho.engine.rulings import Rule, common_ruling, parse_ruling


def ruling_of_action(action: dict[str, Any]) -> Rule:
    """The ruling a record's action states (RuleError `ruling-...` when malformed)."""
    rule = parse_ruling(action["ruling"], action.get("reason", ""), None)
    if rule.kind == "call-time" and not rule.has("round_under_way"):
        # A record states an owed round (docs/match-record.md, "Time called"): without it, none,
        # so that a record written before physical tables owed one replays as it did.
        rule = replace(rule, params=tuple(sorted((*rule.params, ("round_under_way", False)))))
    return rule


def ruling_action(event: RulingEvent) -> dict[str, Any]:
    """The record's action for a ruling's event: the ruling as the referee gave it (never
    a decision at time's own events, which replaying the call draws again)."""
    assert not isinstance(event, PlayersSetAside | DecidedAtTime)
    common = common_ruling(event)
    if common is not None:
        return {"ruling": common, "reason": event.reason}
    ruling: dict[str, Any]
    if isinstance(event, RoundVoided):
        ruling = {"kind": "reopen" if event.reopened else "void-round", "round": event.round}
    elif isinstance(event, DiceChanged):
        if event.ruling == "adjust-dice":
            ruling = {"kind": "adjust-dice", "player": event.player, "delta": event.delta}
        elif event.ruling == "penalty":
            ruling = {"kind": "penalty", "seat": event.player, "dice": -event.delta}
        else:
            ruling = {"kind": "disqualify", "seat": event.player}
    elif isinstance(event, TimeCalled):
        ruling = {"kind": "call-time", "policy": event.policy}
        if event.round_under_way:
            ruling["round_under_way"] = True
    else:
        assert isinstance(event, ResultAwarded)
        ruling = {"kind": "award-result", "placements": dict(event.placements)}
    return {"ruling": ruling, "reason": event.reason}
