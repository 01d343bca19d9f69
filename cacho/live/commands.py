"""The match socket's write entry: a command sent over the socket goes through the match
service (the one write path), its errors turned into an acknowledgement for the sender."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError

from cacho.edge import limits
from cacho.engine.errors import RuleError
from cacho.services import matches
from cacho.services.presentation import wire_event


@dataclass(frozen=True)
class CommandOutcome:
    ok: bool
    version: int = 0
    repeated: bool = False
    code: str = ""
    message: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    # The new events' wire form: the sender's socket renders them without reading the store.
    wire: list[dict[str, Any]] = field(default_factory=list)


def submit_command(
    match_id: str,
    seat: str,
    payload: dict[str, Any],
    command_id: str,
    expected_version: int | None,
    user_id: int | None = None,
) -> CommandOutcome:
    """The write path, with its errors turned into an acknowledgement. A user past the
    `commands` rate (cacho.edge.limits, shared with the API) is refused before any work."""
    if user_id is not None and (wait := limits.hit_leased("commands", user_id)) is not None:
        return CommandOutcome(
            False,
            code="rate-limited",
            message="too many commands: slow down",
            extra={"retry_after": max(1, round(wait))},
        )
    try:
        result = matches.submit(match_id, seat, payload, command_id, expected_version)
    except RuleError as error:
        return CommandOutcome(False, code=error.code, message=error.message)
    except matches.CommandIdReused as reused:
        return CommandOutcome(
            False,
            code="command-id-reused",
            message="this command id was already used for another command",
            extra={"current_version": reused.current_version},
        )
    except matches.VersionConflict as conflict:
        return CommandOutcome(
            False,
            code="version-conflict",
            message=str(conflict),
            extra={"current_version": conflict.current_version},
        )
    except matches.MatchNotFound:
        return CommandOutcome(False, code="match-not-found", message="no such match")
    except IntegrityError:
        return CommandOutcome(False, code="version-conflict", message="the match moved on")
    wire = [] if result.repeated else [wire_event(event) for event in result.events]
    return CommandOutcome(True, version=result.version, repeated=result.repeated, wire=wire)
