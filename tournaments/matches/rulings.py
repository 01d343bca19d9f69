"""What disputes and rulings need of a match: who sat where, when it ended, a referee's
ruling sent to it; and the played matches the integrity signals read."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from cacho.engine.games import game_for
from cacho.engine.round_facts import RoundFacts
from cacho.eventlog.store import read_stream
from cacho.models import Event, Match, Seat
from cacho.services import matches as match_service


@dataclass(frozen=True)
class MatchInfo:
    """What a dispute's pin is checked against: the match's rounds or turns so far (from
    its record) and its last version, and when it ended."""

    version: int
    rounds: int
    turns: int
    finished_at: Any


def match_info(match_id: Any) -> MatchInfo:
    """Reads the whole stream (filing a dispute); `seat_users` and `ended_at` are cheap."""
    match = Match.objects.get(pk=match_id)
    game = game_for(match.ruleset)
    rows = read_stream(match_id)
    record = game.write_record([game.event_from_dict({"type": e.type, **e.payload}) for e in rows])
    return MatchInfo(
        match.version,
        len(record.get("rounds") or ()),
        # An Alalay record lists the finished turns; a live match has one more in play.
        len(record.get("turns") or ())
        + (1 if "turns" in record and match.status == Match.STATUS_LIVE else 0),
        ended_at(match_id),
    )


def seat_users(match_id: Any) -> set[Any]:
    """The users seated in the match."""
    return set(Seat.objects.filter(match_id=match_id, user__isnull=False).values_list("user_id", flat=True))


def ended_at(match_id: Any) -> Any:
    """When a finished match ended (its last event), or None while it is live."""
    if not Match.objects.filter(pk=match_id, status=Match.STATUS_FINISHED).exists():
        return None
    last = Event.objects.filter(stream_id=match_id).order_by("-version").values_list("recorded_at", flat=True)
    return last.first()


def match_exists(match_id: Any) -> bool:
    return Match.objects.filter(pk=match_id).exists()


def seat_names(match_id: Any) -> list[str]:
    return list(Seat.objects.filter(match_id=match_id).order_by("index").values_list("name", flat=True))


def seat_name_and_user(match_id: Any, seat: int) -> tuple[str, Any] | None:
    """The name of seat `seat` of the match and the id of the account holding it (or None):
    a seat link seats a guest only where no account sits."""
    row = Seat.objects.filter(match_id=match_id, index=seat).values_list("name", "user_id").first()
    return None if row is None else (row[0], row[1])


def seated_by_account(match_ids: Sequence[Any]) -> set[tuple[str, int]]:
    """(match id, seat index) of every seat of these matches that an account holds."""
    held = Seat.objects.filter(match_id__in=list(match_ids), user__isnull=False)
    rows = held.values_list("match_id", "index")
    return {(str(match_id), index) for match_id, index in rows}


def rule_match(match_id: Any, ruling: dict[str, Any], *, referee: str, reason: str, command_id: str) -> int:
    """Apply a referee's ruling to the match (an engine event of its stream); the match's
    version after it. RuleError (an illegal ruling) leaves the stream as it was."""
    result = match_service.rule(match_id, ruling, referee=referee, reason=reason, command_id=command_id)
    return int(result.version)


@dataclass(frozen=True)
class PlayedMatch:
    """A finished match's round facts (the engine's), with what joins them to the stream:
    each event's version and recording time by its position, and the seats' users."""

    match_id: Any
    live_clock: bool  # played online: not a physical table's, not an imported record
    users: dict[str, Any]  # seat name -> user id (seats without an account left out)
    facts: tuple[RoundFacts, ...]
    versions: tuple[int, ...]
    recorded_at: tuple[Any, ...]


def played_matches(match_ids: Sequence[Any]) -> Iterator[PlayedMatch]:
    """The finished matches among `match_ids`, newest first, each read from its stream."""
    found = Match.objects.filter(pk__in=list(match_ids), status=Match.STATUS_FINISHED)
    for match in found.order_by("-finished_at"):
        game = game_for(match.ruleset)
        rows = read_stream(match.pk)
        events = [game.event_from_dict({"type": e.type, **e.payload}) for e in rows]
        facts = game.round_facts(events)
        seats = Seat.objects.filter(match=match, user__isnull=False).values_list("name", "user_id")
        yield PlayedMatch(
            match.pk,
            not match.imported and not any(f.physical for f in facts),
            dict(seats),
            facts,
            tuple(e.version for e in rows),
            tuple(e.recorded_at for e in rows),
        )


def ruling_form(ruleset: str) -> dict[str, Any]:
    """What a referee's ruling form offers for this ruleset's game: each ruling kind with the
    fields it asks (`fields`), and the values of a field offered as a list (`choices`)."""
    game = game_for(ruleset)
    return {
        "fields": {kind: list(names) for kind, names in game.ruling_fields.items()},
        "choices": {name: list(values) for name, values in game.ruling_choices.items()},
    }
