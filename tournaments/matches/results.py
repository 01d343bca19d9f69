"""A match's result, read from its event stream (one line per seat, by the seat's index in
the match), and what else the tournaments read of finished matches: finish times, hashes,
summaries, the verified matches."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from cacho.engine.games import game_for
from cacho.eventlog.store import read_stream
from cacho.models import Event, Match, MatchSummary


@dataclass(frozen=True)
class SeatResult:
    """A seat's line in a finished match's result, as the engine decides it."""

    seat: int  # the seat's index in the match
    placement: int
    dice_left: int = 0
    eliminations: int = 0
    alalay_total: int | None = None
    instant_win: bool = False
    at_time: bool = False  # decided at time (docs/rules.md §9.1), not played to its end
    left: bool = False  # the seat abandoned the match (not in `as_dict`: tables keep their lines)

    def as_dict(self) -> dict[str, Any]:
        line = {
            "placement": self.placement,
            "dice_left": self.dice_left,
            "eliminations": self.eliminations,
            "alalay_total": self.alalay_total,
            "instant_win": self.instant_win,
        }
        if self.at_time:  # only then: the lines of every other table stay as they were
            line["at_time"] = True
        return line


@dataclass
class MatchOutcome:
    over: bool
    results: list[SeatResult] = field(default_factory=list)
    last_version: int = 0


def match_result(match_id: Any) -> MatchOutcome:
    """The result of a match read from its event stream (`Game.results`: placements, 1 is
    the winner, shared placements for players out at the same moment), or `over=False`
    while it is live."""
    match = Match.objects.get(pk=match_id)
    game = game_for(match.ruleset)
    rows = read_stream(match_id)
    if not rows:
        return MatchOutcome(False)
    events = [game.event_from_dict({"type": e.type, **e.payload}) for e in rows]
    if not game.is_over(game.replay(events)):
        return MatchOutcome(False, last_version=rows[-1].version)
    results = [
        SeatResult(
            r.seat,
            r.placement,
            dice_left=r.dice_left,
            eliminations=r.eliminations,
            alalay_total=r.alalay_total,
            instant_win=r.instant_win,
            at_time=r.at_time,
            left=r.left,
        )
        for r in game.results(events)
    ]
    return MatchOutcome(True, results, rows[-1].version)


def finished_among(match_ids: Sequence[Any]) -> list[Any]:
    """The ids of the finished matches among `match_ids`."""
    return list(
        Match.objects.filter(pk__in=match_ids, status=Match.STATUS_FINISHED).values_list("pk", flat=True)
    )


def finish_times(match_ids: Sequence[Any]) -> list[Any]:
    """When each finished match among `match_ids` ended (the metrics' standings lag)."""
    return list(
        Match.objects.filter(pk__in=match_ids, status=Match.STATUS_FINISHED).values_list(
            "finished_at", flat=True
        )
    )


def verified_matches() -> Iterator[tuple[Any, int, dict[str, Any]]]:
    """Every match's (id, head version, `verify_match` report), oldest first (the restore check)."""
    from cacho.services.verify import verify_match

    for match in Match.objects.order_by("created_at", "pk").iterator():
        yield match.pk, match.version, verify_match(match)


def event_hash(match_id: Any, version: int | None) -> str | None:
    """The chain hash of a match's event at `version` (None: no match, no such event)."""
    if match_id is None or not version:
        return None
    found = Event.objects.filter(stream_id=match_id, version=version).values_list("hash", flat=True).first()
    return str(found) if found is not None else None


def match_summaries() -> dict[str, tuple[Any, ...]]:
    """Each match's summary projection: (version, status, winners, scores), by match id."""
    rows = MatchSummary.objects.values_list("match_id", "version", "status", "winners", "scores")
    return {str(row[0]): tuple(row[1:]) for row in rows}


def rebuild_match_projection(match_id: Any) -> None:
    """A match's projections (summary, live table) replaced with what its events say."""
    from cacho.eventlog import projections

    projections.rebuild(Match.objects.get(pk=match_id))


def match_events(match_id: Any) -> list[Event]:
    return read_stream(match_id)
