"""Scripted play for the integrity tests, through the match write path: a pair that never
doubts each other, and a pair that doubts every bid."""

from __future__ import annotations

import itertools
import random
from typing import Any

from cacho.engine.errors import RuleError
from cacho.services import matches as match_service
from tests.cacho.helpers import bot_move, state_of

_commands = itertools.count(1)


def _submit(match_id: Any, seat: str, payload: dict[str, Any]) -> bool:
    try:
        match_service.submit(match_id, seat, payload, f"integrity-{next(_commands)}")
    except RuleError:
        return False
    return True


def play_colluding(match_id: Any) -> None:
    """Both players only raise the same face, four bids a round, and end it with a calza."""
    for _ in range(2000):
        state = state_of(match_id)
        if state.phase == "over":
            return
        seat = state.config.players[state.round.to_act]
        bid = state.round.bid
        if bid is not None and len(state.round.actions) >= 4 and _submit(match_id, seat, {"type": "calza"}):
            continue
        raised = {"type": "bid", "quantity": bid.quantity + 1 if bid else 1, "face": bid.face if bid else 5}
        if _submit(match_id, seat, raised) or _submit(match_id, seat, {"type": "calza"}):
            continue
        player, payload = bot_move(state, random.Random(0))
        assert _submit(match_id, player, payload)
    raise AssertionError("the colluding match does not end")


def play_doubting(match_id: Any) -> None:
    """The opener bids one 5; the other doubts it at once."""
    for _ in range(2000):
        state = state_of(match_id)
        if state.phase == "over":
            return
        seat = state.config.players[state.round.to_act]
        if state.round.bid is None:
            assert _submit(match_id, seat, {"type": "bid", "quantity": 1, "face": 5})
        else:
            assert _submit(match_id, seat, {"type": "dudo"})
    raise AssertionError("the doubting match does not end")


__all__ = ["play_colluding", "play_doubting"]
