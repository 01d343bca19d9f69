"""What a viewer sees of a match: Alalay hides nothing (AL-11), but state leaves only through here."""

from __future__ import annotations

from typing import Any

from cacho.engine.alalay.commands import TurnDie
from cacho.engine.alalay.legal import LegalActions, legal_actions
from cacho.engine.alalay.rules import apply
from cacho.engine.alalay.scorecard import BOXES, Card
from cacho.engine.alalay.state import State
from cacho.engine.errors import RuleError
from cacho.engine.viewer import Viewer


def card_to_dict(card: Card) -> dict[str, int | str | None]:
    """Box id -> points, "X" for a scratch, None for an open box."""
    return {box: ("X" if value == 0 else value) for box, value in zip(BOXES, card, strict=False)}


def turn_options(state: State, entry: str, legal: LegalActions) -> list[dict[str, Any]]:
    """What turning each die that may be turned would give: its new face and the open box that
    would then score best (first in box order on a tie; None when no box would score). The
    engine's own `apply` plays the turn, so the page never works a rule out for itself."""
    out: list[dict[str, Any]] = []
    for position in legal.turn_positions:
        try:
            after, _ = apply(state, TurnDie(entry, position))
        except RuleError:
            continue
        if after.turn is None:
            continue
        then = legal_actions(after, entry)
        points = dict(then.hints)
        best = max(then.score, key=lambda box: points[box], default=None)  # max keeps the first on a tie
        out.append(
            {
                "position": position,
                "face": after.turn.dice[position],
                "box": best,
                "points": points[best] if best else 0,
            }
        )
    return out


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    """A JSON-able picture of the match for `viewer` (identical for every viewer but `you`)."""
    turn = state.turn
    out: dict[str, Any] = {
        "ruleset": "alalay",
        "physical": state.physical,
        "options": {
            "dormida_on_full_reroll": state.options.dormida_on_full_reroll,
            "turn_exempt_if_made_hand": state.options.turn_exempt_if_made_hand,
        },
        "entries": [
            {
                "name": entry.name,
                "members": list(entry.members),
                "card": card_to_dict(card),
                "total": total,
                "left": left,
                "penalty": state.penalties[seat] if state.penalties else 0,
                "disqualified": seat in state.disqualified,
            }
            for seat, (entry, card, left, total) in enumerate(
                zip(state.entries, state.cards, state.left, state.totals, strict=False)
            )
        ],
        "to_act": state.to_act,
        "turn": None,
        "finished": state.over,
        "winners": list(state.winners),
        "win_reason": state.win_reason,
        "paused": None if state.paused is None else {"reason": state.paused},
        # docs/rules.md §9.1: the time called on the match, and whether it decided the match
        "time_called": None
        if state.time is None
        else {"policy": state.time.policy, "decided_at_time": state.win_reason == "at-time"},
        "placements": None
        if state.awarded is None
        else {entry.name: place for entry, place in zip(state.entries, state.awarded, strict=True)},
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
            "turn_options": turn_options(state, state.entries[turn.seat].name, legal),
            # At a physical table the scorekeeper enters every move: nobody has one to send.
            "legal": {
                "throw": legal.throw and not state.physical,
                "reroll": legal.reroll and not state.physical,
                "turn": [] if state.physical else list(legal.turn_positions),
                "score": [] if state.physical else list(legal.score),
                "scratch": [] if state.physical else list(legal.scratch),
            },
        }
    return out
