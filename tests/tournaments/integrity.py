"""Scripted play for the integrity tests, through the match write path: a pair that never
doubts each other, and a pair that doubts every bid.

Planted as the tests plant it (the pair colludes at every table it shares, every other
1v1 table doubts every bid, two rounds of tables), the pair flags whatever the dice: at
least 40 answers between them without a dudo (`play_colluding`) against at least 10
doubts elsewhere (5 rounds at least per doubting match) make the club's doubting rate at
least 10/50 and the chance of no doubt at most 0.8**40, about 1.3e-4, under ALPHA."""

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
    """Both players only raise the same face, one at a time up to as many as there are dice,
    and end the round with a calza: at least 40 answers between them (10 + 9 + 8 + 7 + 6
    dice in the shortest match), none a dudo."""
    for _ in range(2000):
        state = state_of(match_id)
        if state.phase == "over":
            return
        seat = state.config.players[state.round.to_act]
        bid = state.round.bid
        topped = bid is not None and bid.quantity >= state.total_dice
        if topped and _submit(match_id, seat, {"type": "calza"}):
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


def play_tables(tables: Any, pair: list[str]) -> None:
    """Each table's match played out: colluding where `pair` sits, doubting elsewhere."""
    for table in tables:
        players = sorted(table.seats.values_list("entry__name", flat=True))
        (play_colluding if players == pair else play_doubting)(table.match_id)


__all__ = ["play_colluding", "play_doubting", "play_tables"]
