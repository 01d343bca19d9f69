"""What a viewer sees of a match: Alalay hides nothing (AL-11), but state leaves only through here."""

from __future__ import annotations

from typing import Any

from cacho.engine.alalay.legal import legal_actions
from cacho.engine.alalay.scorecard import BOXES, Card, card_total
from cacho.engine.alalay.state import State
from cacho.engine.viewer import Viewer


def card_to_dict(card: Card) -> dict[str, int | str | None]:
    """Box id -> points, "X" for a scratch, None for an open box."""
    return {box: ("X" if value == 0 else value) for box, value in zip(BOXES, card, strict=False)}


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    """A JSON-able picture of the match for `viewer` (identical for every viewer but `you`)."""
    turn = state.turn
    out: dict[str, Any] = {
        "ruleset": "alalay",
        "options": {
            "dormida_on_full_reroll": state.options.dormida_on_full_reroll,
            "turn_exempt_if_made_hand": state.options.turn_exempt_if_made_hand,
        },
        "entries": [
            {
                "name": entry.name,
                "members": list(entry.members),
                "card": card_to_dict(card),
                "total": card_total(card),
                "left": left,
            }
            for entry, card, left in zip(state.entries, state.cards, state.left, strict=False)
        ],
        "to_act": state.to_act,
        "turn": None,
        "finished": state.over,
        "winners": list(state.winners),
        "win_reason": state.win_reason,
    }
    if viewer.kind == "player" and viewer.player is not None:
        out["you"] = next(
            (e.name for e in state.entries if viewer.player == e.name or viewer.player in e.members), None
        )
    if turn is not None:
        legal = legal_actions(state, state.entries[turn.seat].name)
        out["turn"] = {
            "entry": state.entries[turn.seat].name,
            "member": turn.member,
            "phase": turn.phase,
            "dice": list(turn.dice),
            "first_throw": list(turn.first_throw),
            "full_reroll": turn.full_reroll,
            "turned": list(turn.turned),
            "must_turn": turn.must_turn,
            "de_mano": turn.de_mano if turn.phase != "await" else None,
            "timed_out": turn.timed_out,
            "hints": {box: points for box, points in legal.hints},
            "legal": {
                "throw": legal.throw,
                "reroll": legal.reroll,
                "turn": list(legal.turn_positions),
                "score": list(legal.score),
                "scratch": list(legal.scratch),
            },
        }
    return out
