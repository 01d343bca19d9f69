"""Projections rebuilt from the event log: `MatchSummary` and `LiveTable`.

`update` runs after each commit with the state the write path just computed;
`rebuild` replays a stream from its events and writes the same rows. Both go
through `rows_for(state)`, and a row is only ever replaced by a newer version,
so late after-commit hooks never move a projection backwards.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from typing import Any

from django.db import IntegrityError, connection, transaction

from cacho.database import databases
from cacho.engine.games import Game, game_for
from cacho.engine.viewer import Viewer
from cacho.models import Event, LiveTable, Match, MatchSummary


def rows_for(match: Match | None, state: Any, game: Game) -> tuple[dict[str, Any], dict[str, Any]]:
    """(summary fields, live table fields) for a state."""
    over = game.is_over(state)
    summary = {
        "status": Match.STATUS_FINISHED if over else Match.STATUS_LIVE,
        "to_act": game.to_act(state) or "",
        "winners": list(game.winners(state)),
        "scores": game.scores(state),
    }
    live = {"view": game.view(state, Viewer.spectator())}
    return summary, live


def _upsert(
    model: type[MatchSummary] | type[LiveTable], match_id: Any, version: int, fields: dict[str, Any]
) -> None:
    updated = model.objects.filter(match_id=match_id, version__lt=version).update(version=version, **fields)
    if updated or model.objects.filter(match_id=match_id).exists():
        return
    try:
        with transaction.atomic():
            model.objects.create(match_id=match_id, version=version, **fields)
    except IntegrityError:  # created meanwhile by a concurrent hook: retry the guarded update
        model.objects.filter(match_id=match_id, version__lt=version).update(version=version, **fields)


UPSERT_BOTH = """
WITH summary AS (
    INSERT INTO cacho_matchsummary (match_id, version, status, to_act, winners, scores, last_event_at)
    VALUES (%s, %s, %s, %s, %s::jsonb, %s::jsonb, %s)
    ON CONFLICT (match_id) DO UPDATE SET
        version = EXCLUDED.version, status = EXCLUDED.status, to_act = EXCLUDED.to_act,
        winners = EXCLUDED.winners, scores = EXCLUDED.scores, last_event_at = EXCLUDED.last_event_at
    WHERE cacho_matchsummary.version < EXCLUDED.version
)
INSERT INTO cacho_livetable (match_id, version, view) VALUES (%s, %s, %s::jsonb)
ON CONFLICT (match_id) DO UPDATE SET version = EXCLUDED.version, view = EXCLUDED.view
WHERE cacho_livetable.version < EXCLUDED.version
"""


def update(match_id: Any, version: int, state: Any, game: Game, last_event_at: dt.datetime) -> None:
    """Bring both projections to `version` (never backwards); one round trip on PostgreSQL."""
    summary, live = rows_for(None, state, game)
    if databases.postgresql():
        key = uuid.UUID(str(match_id)).hex
        with connection.cursor() as cursor:
            cursor.execute(
                UPSERT_BOTH,
                [
                    key,
                    version,
                    summary["status"],
                    summary["to_act"],
                    json.dumps(summary["winners"]),
                    json.dumps(summary["scores"]),
                    last_event_at,
                    key,
                    version,
                    json.dumps(live["view"]),
                ],
            )
        return
    _upsert(MatchSummary, match_id, version, {**summary, "last_event_at": last_event_at})
    _upsert(LiveTable, match_id, version, live)


def rebuild(match: Match) -> None:
    """Replace a match's projections with what its events say."""
    game = game_for(match.ruleset)
    events = list(Event.objects.filter(stream=match).order_by("version"))
    if not events:
        return
    state = game.replay(game.event_from_dict({"type": e.type, **e.payload}) for e in events)
    summary, live = rows_for(match, state, game)
    version = events[-1].version
    with transaction.atomic():
        MatchSummary.objects.update_or_create(
            match=match, defaults={**summary, "version": version, "last_event_at": events[-1].recorded_at}
        )
        LiveTable.objects.update_or_create(match=match, defaults={**live, "version": version})


def rebuild_all() -> int:
    count = 0
    for match in Match.objects.order_by("created_at").iterator():
        rebuild(match)
        count += 1
    return count
