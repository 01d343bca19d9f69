"""Referee rulings in an Alalay record (docs/match-record.md, "Rulings"): an item
`{"ruling": {"kind": ..., ...params}, "reason": text}` among the turns."""

from __future__ import annotations

from typing import Any

from cacho.engine.alalay.ruling_events import (
    EntryDisqualified,
    MatchReopened,
    PenaltyGiven,
    ResultAwarded,
    RulingEvent,
    TimeCalled,
    TurnCorrected,
)
from cacho.engine.rulings import common_ruling


def ruling_item(event: RulingEvent) -> dict[str, Any]:
    """The record's item for a ruling's event: the ruling as the referee gave it."""
    common = common_ruling(event)
    if common is not None:
        return {"ruling": common, "reason": event.reason}
    ruling: dict[str, Any]
    if isinstance(event, TurnCorrected):
        score: dict[str, Any] = {"scratch": True} if event.points == 0 else {"points": event.points}
        ruling = {"kind": "correct-turn", "turn": event.turn, "box": event.box, **score}
    elif isinstance(event, PenaltyGiven):
        ruling = {"kind": "penalty", "seat": event.entry, "points": event.points}
    elif isinstance(event, EntryDisqualified):
        ruling = {"kind": "disqualify", "seat": event.entry}
    elif isinstance(event, ResultAwarded):
        ruling = {"kind": "award-result", "placements": dict(event.placements)}
    elif isinstance(event, TimeCalled):
        ruling = {"kind": "call-time", "policy": event.policy}
    else:
        assert isinstance(event, MatchReopened)
        ruling = {"kind": "reopen", "turn": event.turn}
    return {"ruling": ruling, "reason": event.reason}
