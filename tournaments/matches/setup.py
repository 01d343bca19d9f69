"""The games a tournament may play, as the match server knows them, and a table's match made."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from cacho.engine.games import game_for
from cacho.services import matches as match_service
from cacho.services import players


def game_of(ruleset: str) -> str:
    """ "dudo" or "alalay" for a ruleset; RuleError `unknown-ruleset` otherwise."""
    return game_for(ruleset).name


def traits(ruleset: str) -> dict[str, Any]:
    """What the pages draw differently for this ruleset's game (`cacho.engine.traits`)."""
    return game_for(ruleset).traits.as_json()


def option_specs(ruleset: str) -> tuple[Any, ...]:
    """The options of a ruleset, from the engine (name, values, default)."""
    return game_for(ruleset).options(ruleset)


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
    physical: bool = False,
    members: Sequence[Sequence[tuple[str, Any]]] = (),
    partners: Sequence[Sequence[Any]] = (),
) -> uuid.UUID:
    """A live match for a table; `seat_names[0]` opens. Users (or None) take their seats.
    `physical`: its scorekeeper enters it (no die rolled, no clock). `members`: per seat,
    the players of a pair or team, in the order they take its turns, each a name with its
    account (None: a guest); `partners`: per seat, the other accounts among them, which
    play the seat too.

    An online table seats an account by its player id, never by the entry's name, and
    names a member with an account by its player id too (its events then name no person;
    the match document shows their labels, `cacho.services.players`); a guest keeps its
    name. A physical table's seats and members are the names its paper sheet and record
    file carry (docs/leaving.md)."""
    labels: dict[int, str] = {}
    if not physical:
        held = enumerate(zip(seat_names, users, strict=True))
        labels = {index: name for index, (name, user) in held if user is not None}
        ids = players.seat_names(user for user in users if user is not None)
        seat_names = [
            name if user is None else ids[user.pk] for name, user in zip(seat_names, users, strict=True)
        ]
    member_names = [
        [name if physical or user is None else players.seat_name(user) for name, user in seat]
        for seat in members
    ]
    match = match_service.create_match(
        ruleset,
        list(seat_names),
        options=options,
        turn_seconds=turn_seconds,
        first_seat=0,
        tournament_ref=ref,
        physical=physical,
        members=member_names,
    )
    match_service.take_seats(match.pk, {index: user for index, user in enumerate(users) if user is not None})
    match_service.add_partners(match.pk, dict(enumerate(partners)))
    players.label_seats(match.pk, labels)  # pages show the entry's name (a team's) beside its id
    return match.pk


def player_id(user: Any) -> str:
    """The account's pseudonymous player id (`p7`): what matches and the tournament log
    name it by (docs/leaving.md)."""
    return players.seat_name(user)


def time_policies(ruleset: str) -> tuple[str, ...]:
    """The policies that decide a table of this ruleset at time, its default first
    (docs/rules.md §9.1)."""
    return game_for(ruleset).time_policies


def call_time(match_id: Any, policy: str, *, director: str, reason: str, command_id: str) -> int:
    """Call time on the match (an engine event of its stream, the director as its actor):
    a table still playing plays on as `policy` says, then ends. The match's version after
    it; RuleError (`time-already-called`, `ruling-match-over`) leaves the stream as it was."""
    ruling = {"kind": "call-time", "policy": policy}
    result = match_service.rule(match_id, ruling, referee=director, reason=reason, command_id=command_id)
    return int(result.version)


def team_seats(ruleset: str) -> bool:
    """Whether a seat of this ruleset's game may be a pair or a team (`Traits.team_seats`)."""
    return game_for(ruleset).traits.team_seats


def check_setup(ruleset: str, options: dict[str, Any], table_size: int, turn_seconds: int) -> None:
    """Raise RuleError when the engine refuses these rules for a table of `table_size`."""
    game = game_for(ruleset)
    names = [f"p{i}" for i in range(table_size)]
    game.start(ruleset, options, names, 0, turn_seconds)
