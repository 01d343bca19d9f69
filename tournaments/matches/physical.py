"""Physical tables: a scorekeeper's entries and checks, pauses, imported table records, and
the sheet a table's players confirm."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cacho.engine.errors import RuleError
from cacho.engine.games import game_for
from cacho.eventlog.store import read_stream
from cacho.models import Match
from cacho.services import matches as match_service


def enter(
    match_id: Any, payload: dict[str, Any], *, scorekeeper: str, command_id: str, expected_version: int | None
) -> int:
    """A scorekeeper's entry through the match's write path; the match's version after it.
    RuleError (illegal: nothing stored) and VersionConflict pass through."""
    result = match_service.enter(
        match_id, payload, scorekeeper=scorekeeper, command_id=command_id, expected_version=expected_version
    )
    return int(result.version)


def check_entry(match_id: Any, payload: dict[str, Any]) -> list[dict[str, Any]]:
    """What an entry would do now (the engine's events), storing nothing; RuleError if illegal."""
    return match_service.check_entry(match_id, payload)


def pause_match(match_id: Any, *, referee: str, reason: str, command_id: str) -> bool:
    """Stop a table's match for good where a new one replaces it (a `pause` ruling: no clock,
    no move); False when it is over or paused already."""
    try:
        match_service.rule(match_id, {"kind": "pause"}, referee=referee, reason=reason, command_id=command_id)
    except RuleError:
        return False
    return True


def import_table_record(record: Any, users: Sequence[Any], *, by: Any, ref: str) -> uuid.UUID:
    """A physical table's record stored as the table's match (RecordFormatError, RuleError
    when the engine refuses it); users (or None) take their seats."""
    match = match_service.import_record(
        record, created_by=by, actor=f"import:user:{getattr(by, 'pk', '')}", tournament_ref=ref
    )
    for index, user in enumerate(users):
        if user is not None:
            match_service.take_seat(match.pk, index, user)
    return match.pk


def record_seat_names(record: Any) -> list[str] | None:
    """The seats a record names, in the match's seat order (None: not a record's shape)."""
    if not isinstance(record, dict) or not isinstance(record.get("players"), list):
        return None
    return [str(name) for name in record["players"]]


@dataclass(frozen=True)
class Sheet:
    """A physical table's match as its scorekeeper works on it."""

    match: dict[str, Any]  # the match document, every die shown (the referee's view)
    options: dict[str, Any]  # what may be entered now (the engine's)
    record: dict[str, Any]  # the match so far as a record (undone entries left out)
    outcome: dict[str, Any]  # the record's replay: each round's or turn's result
    version: int
    over: bool
    undo: dict[str, Any] | None  # the last entry, when the scorekeeper may undo it


def sheet(match_id: Any) -> Sheet:
    from cacho.engine.viewer import Viewer
    from cacho.services.presentation import match_json
    from cacho.services.state_cache import engine_events

    match = Match.objects.get(pk=match_id)
    game = game_for(match.ruleset)
    state = match_service.load_state(match, game)
    record = game.write_record(engine_events(match, game))
    options = game.entry_options(state)
    undo = None
    if options.get("undo") and match_service.last_entry_is_scorekeepers(match_id, match.version):
        rows = read_stream(match_id, after=match.version - 2)
        entry = next(e for e in reversed(rows) if e.type != "match_ended")
        undo = {"version": entry.version, "type": entry.type, "payload": entry.payload}
    options["undo"] = undo is not None
    return Sheet(
        match=match_json(match, Viewer.referee()),
        options=options,
        record=record,
        outcome=game.replay_record(record),
        version=match.version,
        over=game.is_over(state),
        undo=undo,
    )


def match_version(match_id: Any) -> int:
    return int(Match.objects.filter(pk=match_id).values_list("version", flat=True).first() or 0)
