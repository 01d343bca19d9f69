"""Making a match: a new live one (`create_match`) or a physical table's record
(`import_record`), its first events stored with its row and seats in one append. Part of
the one write path (services.matches re-exports both)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cacho import fairness
from cacho.engine.errors import RecordFormatError, RuleError
from cacho.engine.games import Game, game_for
from cacho.engine.record import replay_record
from cacho.eventlog.chain import digest
from cacho.eventlog.store import Head
from cacho.models import Match
from cacho.process.clock import now_ms
from cacho.services.batch import SERVER, Batch


def create_match(
    ruleset: str,
    seats: Sequence[str],
    *,
    options: Mapping[str, Any] | None = None,
    turn_seconds: int = 30,
    created_by: Any = None,
    first_seat: int | None = None,
    tournament_ref: str = "",
    physical: bool = False,
    members: Sequence[Sequence[str]] = (),
) -> Match:
    """A new live match: its first events, and the first round's dice where the game needs
    them. `physical`: played at a physical table, where a scorekeeper enters the dice (none
    is rolled) and no clock runs. `members`: per seat, the players of a pair or team."""
    game = game_for(ruleset)
    options = dict(options or {})
    if first_seat is None:
        first_seat = fairness.draw_index(len(seats)) if seats else 0
    first_events = game.start(ruleset, options, list(seats), first_seat, turn_seconds, physical, members)
    match = _new_row(game, ruleset, options, turn_seconds=turn_seconds, created_by=created_by)
    match.tournament_ref = tournament_ref
    return _store_new_match(match, game, list(seats), first_events, SERVER, settle=True)


def import_record(
    record: Any, created_by: Any = None, actor: str = "import", tournament_ref: str = ""
) -> Match:
    """A physical table's record: checked by the engine before anything is stored, then
    stored as a physical match (no clock ever runs on it, even when the record stops in
    the middle; a scorekeeper may go on entering it).

    Raises RecordFormatError (not a record) or RuleError (a record that breaks a rule)."""
    if not isinstance(record, dict):
        raise RecordFormatError("not-an-object", "a record is a JSON object")
    ruleset = record.get("ruleset")
    if not isinstance(ruleset, str):
        raise RecordFormatError("missing-ruleset", "ruleset must be a string")
    try:
        game = game_for(ruleset)
    except RuleError as exc:
        raise RecordFormatError(exc.code, exc.message) from exc
    outcome = replay_record(record)
    if not outcome.get("valid"):
        error = outcome["error"]
        raise RuleError(error["code"], f"{record_position(error)}: {error['message']}")
    events = game.record_events(record, physical=True)
    seats = list(game.seats(game.replay(events)))
    match = _new_row(game, ruleset, record.get("options", {}), imported=True, created_by=created_by)
    match.tournament_ref = tournament_ref
    return _store_new_match(match, game, seats, events, actor, settle=False)


def record_position(error: Mapping[str, Any]) -> str:
    """Where a record breaks a rule, in words, counted from 1: "round 2, action 3",
    "round 2" (the round itself), "ruling 1 before the first round", "turn 5"."""
    if "turn" in error:
        return f"turn {error['turn'] + 1}"
    if error["round"] is None:
        return f"ruling {error['action'] + 1} before the first round"
    where = f"round {error['round'] + 1}"
    return where if error.get("action") is None else f"{where}, action {error['action'] + 1}"


def options_hash(options: Mapping[str, Any]) -> str:
    return digest(dict(options))


def _new_row(game: Game, ruleset: str, options: Mapping[str, Any], **fields: Any) -> Match:
    return Match(
        game=game.name, ruleset=ruleset, options=options, options_hash=options_hash(options), **fields
    )


def _store_new_match(
    match: Match, game: Game, seats: list[str], events: Sequence[Any], actor: str, *, settle: bool
) -> Match:
    """The row, its seats, its first events (and its first round's seed), stored together."""
    head = Head(match.id, match.ruleset, match.turn_seconds)
    batch = Batch(head, game, game.initial_state(events[0]), now_ms(), actor)
    batch.add(events[:1], actor, opening=True)
    batch.add(events[1:], actor)
    if settle:
        batch.settle()
    batch.create(match, seats)
    return match
