"""`legal_actions(state, player)`: what the table offers a player right now.

Legality is asked of the checks `decide` itself runs (`decide.refusal`), so the hint and
the judge never disagree.
"""

from __future__ import annotations

from typing import Any

from cacho.engine.bidding.bids import quantity_ranges
from cacho.engine.bidding.commands import (
    Abandon,
    AnnouncePaso,
    AnnounceSalpicon,
    CallCalza,
    CallDudo,
    DenySalpicon,
)
from cacho.engine.bidding.decide import Answer, refusal, right_after_aces_opening
from cacho.engine.bidding.state import MatchState


def idle(player: str) -> dict[str, Any]:
    """The legal actions of a player who may do nothing now."""
    return {"player": player, "on_turn": False, "actions": [], "bid_minimums": None, "bid_maximums": None}


def legal_actions(state: MatchState, player: str) -> dict[str, Any]:
    """Every legal action of `player`, with the least (and greatest) quantity biddable on
    each face: the hint shown above each die."""
    legal = idle(player)
    if state.phase == "over" or player not in state.config.players or state.paused is not None:
        return legal  # a paused match takes no player's command
    seat = state.config.seat(player)
    current = state.round
    if current is None or state.dice_counts[seat] == 0:
        return legal
    actions: list[str] = []
    on_turn = current.to_act == seat
    legal["on_turn"] = on_turn
    if on_turn:
        ranges = quantity_ranges(
            state.rules,
            current.mode,
            current.bid,
            state.total_dice,
            bidder_dice=state.dice_counts[seat],
            right_after_aces_opening=right_after_aces_opening(state.rules, current),
        )
        if any(span is not None for span in ranges.values()):
            actions.append("bid")
            legal["bid_minimums"] = {face: None if span is None else span[0] for face, span in ranges.items()}
            legal["bid_maximums"] = {face: None if span is None else span[1] for face, span in ranges.items()}
        if current.bid is None and state.rules.starter_chooses_direction:
            legal["directions"] = ["cw", "ccw"]
    candidates: list[tuple[str, Answer]] = [
        ("dudo", CallDudo(player)),
        ("calza", CallCalza(player)),
        ("paso", AnnouncePaso(player)),
        ("salpicon", AnnounceSalpicon(player)),
        ("deny", DenySalpicon(player)),
        ("abandon", Abandon(player)),
    ]
    actions += [name for name, command in candidates if refusal(state, command) is None]
    legal["actions"] = actions
    return legal
