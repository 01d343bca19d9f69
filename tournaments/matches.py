"""The one module of `tournaments` that talks to the match server (`cacho`).

Everything the competition layer needs from a match goes through here: create the
match of a table (`create_table_match`), read a finished match's result from its
event stream (`match_result`), forfeit what a withdrawn entry has left
(`forfeit_seat`), and play bots (`bot_payload`). When `cacho` changes shape, this is
the file to fix. The dependency points one way: `cacho` never imports `tournaments`.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cacho import log_order
from cacho.engine.errors import RuleError
from cacho.engine.games import game_for
from cacho.log_order import LogPosition
from cacho.models import Event, Match
from cacho.services import matches as match_service
from cacho.store import read_all_after, read_stream

INSTANT_WIN_REASONS = frozenset({"dormida", "panza-de-oro", "four-in-every-number"})


def game_of(ruleset: str) -> str:
    """ "dudo" or "alalay" for a ruleset; RuleError `unknown-ruleset` otherwise."""
    return game_for(ruleset).name


def rulesets() -> dict[str, tuple[str, ...]]:
    from cacho.engine.games import GAMES

    return {name: game.rulesets() for name, game in GAMES.items()}


def create_table_match(
    ruleset: str,
    seat_names: Sequence[str],
    users: Sequence[Any],
    *,
    options: dict[str, Any],
    turn_seconds: int,
    ref: str,
) -> uuid.UUID:
    """A live match for a table; `seat_names[0]` opens. Users (or None) take their seats."""
    match = match_service.create_match(
        ruleset,
        list(seat_names),
        options=options,
        turn_seconds=turn_seconds,
        first_seat=0,
        tournament_ref=ref,
    )
    for index, user in enumerate(users):
        if user is not None:
            match_service.take_seat(match.pk, index, user)
    return match.pk


def check_setup(ruleset: str, options: dict[str, Any], table_size: int, turn_seconds: int) -> None:
    """Raise RuleError when the engine refuses these rules for a table of `table_size`."""
    game = game_for(ruleset)
    names = [f"p{i}" for i in range(table_size)]
    game.start(ruleset, options, names, 0, turn_seconds)


# ---------------------------------------------------------------- results


@dataclass(frozen=True)
class SeatResult:
    seat: str
    placement: int
    dice_left: int = 0
    eliminations: int = 0
    alalay_total: int | None = None
    instant_win: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "placement": self.placement,
            "dice_left": self.dice_left,
            "eliminations": self.eliminations,
            "alalay_total": self.alalay_total,
            "instant_win": self.instant_win,
        }


@dataclass
class MatchOutcome:
    over: bool
    results: list[SeatResult] = field(default_factory=list)
    last_version: int = 0


def _placements(order: Sequence[Sequence[str]]) -> dict[str, int]:
    """Competition ranking from tiers, best first: (a), (b, c), (d) -> 1, 2, 2, 4."""
    out: dict[str, int] = {}
    place = 1
    for tier in order:
        for name in tier:
            out[name] = place
        place += len(tier)
    return out


def _bidding_result(events: Sequence[dict[str, Any]], players: Sequence[str], state: Any) -> list[SeatResult]:
    game = game_for("dudo")
    out_step: dict[str, int] = {}
    credit: dict[str, int] = dict.fromkeys(players, 0)
    for step, event in enumerate(events):
        if event["type"] == "round_resolved":
            caller, target = event.get("caller"), event.get("target")
            for name in event.get("eliminated") or ():
                out_step.setdefault(name, step)
                if name == target and caller in credit and caller != name:
                    credit[caller] += 1
                elif name == caller and target in credit and target != name:
                    credit[target] += 1
        elif event["type"] == "player_abandoned":
            out_step.setdefault(event["player"], step)
    winners = list(game.winners(state))
    dice = game.scores(state)["dice"]
    alive = [p for p in players if p not in out_step and p not in winners]
    by_step: dict[int, list[str]] = {}
    for name, step in out_step.items():
        if name not in winners:
            by_step.setdefault(step, []).append(name)
    tiers: list[list[str]] = [winners] if winners else []
    if alive:
        tiers.append(alive)
    tiers += [sorted(by_step[s]) for s in sorted(by_step, reverse=True)]
    place = _placements(tiers)
    return [SeatResult(p, place[p], dice_left=int(dice.get(p, 0)), eliminations=credit[p]) for p in players]


def _alalay_result(events: Sequence[dict[str, Any]], players: Sequence[str], state: Any) -> list[SeatResult]:
    game = game_for("alalay")
    totals: dict[str, int] = game.scores(state)["totals"]
    winners = list(game.winners(state))
    reason = next((e.get("reason") for e in events if e["type"] == "match_ended"), None)
    left = {e["entry"] for e in events if e["type"] == "entry_abandoned"}
    rest = [p for p in players if p not in winners]
    tiers: list[list[str]] = [winners] if winners else []
    for group in ([p for p in rest if p not in left], [p for p in rest if p in left]):
        for total in sorted({totals[p] for p in group}, reverse=True):
            tiers.append(sorted(p for p in group if totals[p] == total))
    place = _placements(tiers)
    instant = reason in INSTANT_WIN_REASONS
    return [
        SeatResult(p, place[p], alalay_total=int(totals[p]), instant_win=instant and p in winners)
        for p in players
    ]


def match_result(match_id: Any) -> MatchOutcome:
    """The result of a match read from its event stream (placements: 1 is the winner, shared
    placements for players out at the same moment), or `over=False` while it is live."""
    match = Match.objects.get(pk=match_id)
    game = game_for(match.ruleset)
    rows = read_stream(match_id)
    if not rows:
        return MatchOutcome(False)
    dicts = [{"type": e.type, **e.payload} for e in rows]
    state = game.replay(game.event_from_dict(dict(d)) for d in dicts)
    if not game.is_over(state):
        return MatchOutcome(False, last_version=rows[-1].version)
    players = [s.name for s in match.seats.order_by("index")]
    if game.name == "alalay":
        results = _alalay_result(dicts, players, state)
    else:
        results = _bidding_result(dicts, players, state)
    return MatchOutcome(True, results, rows[-1].version)


def events_after(checkpoint: LogPosition, limit: int = 1000) -> list[tuple[LogPosition, Any]]:
    """(point in the global order, match id) of every match event after `checkpoint`, in
    global order (cacho.log_order)."""
    return [(log_order.of(event), event.stream_id) for event in read_all_after(checkpoint, limit)]


def match_events(match_id: Any) -> list[Event]:
    return read_stream(match_id)


# ---------------------------------------------------------------- forfeits and bots


def forfeit_seat(match_id: Any, seat: str, command_id: str) -> bool:
    """The entry at `seat` leaves the match for good (an abandon); False when it cannot
    (the match is over or the seat has already left)."""
    try:
        match_service.submit(match_id, seat, {"type": "abandon"}, command_id, actor="tournament")
    except (RuleError, match_service.VersionConflict, match_service.MatchNotFound):
        return False
    return True


def _bidding_payload(state: Any, rng: random.Random) -> dict[str, Any] | None:
    from cacho.engine.bidding import bots
    from cacho.engine.bidding.commands import (
        AnnouncePaso,
        AnnounceSalpicon,
        CallCalza,
        CallDudo,
        DenySalpicon,
        PlaceBid,
    )

    if state.round is None:
        return None
    command = bots.random_command(state, rng, timeout_rate=0.0)
    if isinstance(command, PlaceBid):
        payload: dict[str, Any] = {"type": "bid", "quantity": command.quantity, "face": command.face}
        if command.direction is not None:
            payload["direction"] = command.direction
        return payload
    simple = {
        CallDudo: "dudo",
        CallCalza: "calza",
        AnnouncePaso: "paso",
        AnnounceSalpicon: "salpicon",
        DenySalpicon: "deny",
    }
    for kind, name in simple.items():
        if isinstance(command, kind):
            return {"type": name}
    return None


def _alalay_payload(state: Any) -> dict[str, Any] | None:
    from cacho.engine import alalay

    step = alalay.auto_play(state)
    if step is None:
        return None
    if isinstance(step, alalay.RollRequest):
        if step.reroll:
            return {"type": "reroll", "keep": list(step.keep)}
        return {"type": "throw"}
    if isinstance(step, alalay.TurnDie):
        return {"type": "turn", "position": step.position}
    if isinstance(step, alalay.Score):
        return {"type": "score", "box": step.box}
    if isinstance(step, alalay.Scratch):
        return {"type": "scratch", "box": step.box}
    return None


def bot_move(match_id: Any, bots: Iterable[str], rng: random.Random, command_id: str) -> bool:
    """If a bot (by seat name) is on turn in this match, make it act through the write path."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status != Match.STATUS_LIVE:
        return False
    game = game_for(match.ruleset)
    state = match_service.load_state(match, game)
    seat = game.to_act(state)
    if seat is None or seat not in set(bots):
        return False
    payload = _alalay_payload(state) if game.name == "alalay" else _bidding_payload(state, rng)
    if payload is None:
        return False
    try:
        match_service.submit(match_id, seat, payload, command_id, expected_version=match.version)
    except match_service.VersionConflict:
        return False
    return True
