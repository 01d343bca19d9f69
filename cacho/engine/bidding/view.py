"""What each viewer may see (docs/rules.md §10). The only way state leaves the engine.

A player sees their own dice, except in obligado and blind rounds where only a
player holding exactly one die sees it; spectators and players without dice see
public information and reveals; referees see everything.
"""

from __future__ import annotations

from typing import Any

from cacho.engine.bidding.at_time import placements as at_time_placements
from cacho.engine.bidding.events import Event, RoundStarted
from cacho.engine.bidding.legal import idle, legal_actions
from cacho.engine.bidding.rules import Mode
from cacho.engine.bidding.serialization import event_to_dict
from cacho.engine.bidding.state import MatchState, Resolution
from cacho.engine.viewer import Viewer


def may_see_own_dice(mode: Mode, held: int) -> bool:
    return held > 0 and (mode not in ("obligado", "blind") or held == 1)


def visible_hands(
    players: tuple[str, ...], mode: Mode, dice: tuple[tuple[int, ...], ...], viewer: Viewer
) -> dict[str, list[int]]:
    """The hidden dice of a round that `viewer` may see, by player."""
    if viewer.kind == "referee":
        return {name: list(hand) for name, hand in zip(players, dice, strict=True) if hand}
    if viewer.kind != "player" or viewer.player not in players:
        return {}
    hand = dice[players.index(viewer.player)]
    return {viewer.player: list(hand)} if may_see_own_dice(mode, len(hand)) else {}


def _resolution(state: MatchState, resolution: Resolution) -> dict[str, Any]:
    players = state.config.players
    return {
        "result": resolution.result,
        "caller": None if resolution.caller is None else players[resolution.caller],
        "target": None if resolution.target is None else players[resolution.target],
        "bid": None if resolution.bid is None else [resolution.bid.quantity, resolution.bid.face],
        "count": resolution.count,
        "revealed": {players[seat]: list(hand) for seat, hand in resolution.revealed},
        "dice_change": {players[seat]: delta for seat, delta in resolution.dice_change},
        "eliminated": [players[seat] for seat in resolution.eliminated],
        "next_starter": None if resolution.next_starter is None else players[resolution.next_starter],
        "next_mode": resolution.next_mode,
        "counted": None
        if resolution.counted is None
        else {players[seat]: list(positions) for seat, positions in resolution.counted},
    }


def view(state: MatchState, viewer: Viewer) -> dict[str, Any]:
    config = state.config
    players = config.players
    rules = state.rules
    current = state.round
    round_view: dict[str, Any] | None = None
    if current is not None:
        round_view = {
            "number": current.number,
            "mode": current.mode,
            "starter": players[current.starter],
            "direction": current.direction,
            # While the referee pauses the table nobody is on turn and no clock runs.
            "to_act": None if state.paused is not None else players[current.to_act],
            "deadline": None if state.paused is not None else current.deadline,
            "bid": None
            if current.bid is None or current.bidder is None
            else {"quantity": current.bid.quantity, "face": current.bid.face, "by": players[current.bidder]},
            "actions": [
                {
                    "by": players[action.seat],
                    "kind": action.kind,
                    "bid": None if action.bid is None else [action.bid.quantity, action.bid.face],
                    "timed_out": action.timed_out,
                }
                for action in current.actions
            ],
            "pasos": [players[seat] for seat in sorted(current.pasos)],
            "salpicon_by": None if current.salpicon_by is None else players[current.salpicon_by],
            "salpicon_pending": current.salpicon_pending,
            "dice": visible_hands(players, current.mode, current.dice, viewer),
        }
    result: dict[str, Any] = {
        "game": "dudo",
        "ruleset": rules.ruleset,
        "physical": config.physical,
        "options": dict(rules.options),
        "viewer": {"kind": viewer.kind, "player": viewer.player},
        "players": [
            {
                "name": name,
                "dice": state.dice_counts[seat],
                "out": state.dice_counts[seat] == 0,
                "abandoned": seat in state.abandoned,
                "timeouts_in_a_row": state.timeouts[seat],
            }
            for seat, name in enumerate(players)
        ],
        "total_dice": state.total_dice,
        "phase": state.phase,
        "round": round_view,
        "next_starter": None if state.next_starter is None else players[state.next_starter],
        "next_mode": state.next_mode,
        "last_round": None if state.last_resolution is None else _resolution(state, state.last_resolution),
        "calzo_disabled": state.calzo_disabled,
        "calzo_threshold": rules.calzo_threshold(config.initial_players) if rules.calza_threshold else None,
        "winner": None if state.winner is None else players[state.winner],
        "paused": None if state.paused is None else {"reason": state.paused},
        "disqualified": [players[seat] for seat in sorted(state.table.disqualified)],
        "placements": _placements(state),
        "time_called": _time_called(state),
    }
    if viewer.kind == "player" and viewer.player in players:
        # At a physical table the scorekeeper enters every move: a player has none to send.
        result["legal"] = idle(viewer.player) if config.physical else legal_actions(state, viewer.player)
    return result


def _placements(state: MatchState) -> dict[str, int] | None:
    """An award's places, or a decision at time's for the players still in (else None)."""
    players = state.config.players
    if state.table.awarded is not None:
        return dict(zip(players, state.table.awarded, strict=True))
    placed = at_time_placements(state)
    return None if placed is None else {players[seat]: place for seat, place in sorted(placed.items())}


def _time_called(state: MatchState) -> dict[str, Any] | None:
    """The time call on the table (rules.md §9.1): its policy, whether it has decided the
    table, and the dice each player sits out a sudden death with."""
    time = state.table.time
    if time is None:
        return None
    players = state.config.players
    aside = {players[seat]: dice for seat, dice in enumerate(time.set_aside) if dice}
    return {"policy": time.policy, "decided_at_time": time.decided, "set_aside": aside}


def view_event(event: Event, players: tuple[str, ...], viewer: Viewer) -> dict[str, Any]:
    """An event as `viewer` may receive it: a round's dice become the hands they may see,
    by player, beside every player's dice count."""
    payload = event_to_dict(event)
    if isinstance(event, RoundStarted):
        payload["dice"] = visible_hands(players, event.mode, event.dice, viewer)
        payload["dice_counts"] = {name: len(hand) for name, hand in zip(players, event.dice, strict=True)}
    return payload
