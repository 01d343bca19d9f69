"""Read-only: where a match sits in its tournament, for the match page's end screen (the
tournament and its standings, and the viewer's next table there)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from tournaments.models import Dispute, Entry, Table
from tournaments.services import appeals
from tournaments.services.seat_links import session_entries
from tournaments.services.standings import standing_rows
from tournaments.services.tables import table_of

DECIDING = ("award-result", "disqualify")  # rulings that name the winner themselves
TOP_ROWS = 5  # the end screen's standings: the leaders, then the viewer's own rows


def next_match(table: Table, user: Any, session: Any = None) -> str | None:
    """The viewer's next match in the same tournament: the first table, after this one, still
    being played, that seats one of the viewer's entries (theirs, one they are a member of,
    or the walk-in entry their browser's seat link follows)."""
    mine = _mine(table, user, session)
    if not mine:
        return None
    tournament = table.round.tournament
    following = (
        Table.objects.filter(round__tournament=tournament, status=Table.PLAYING, seats__entry__in=mine)
        .exclude(pk=table.pk)
        .exclude(match_id=None)
        .order_by("round__number", "number")
        .first()
    )
    return None if following is None else str(following.match_id)


def placements(table: Table) -> list[dict[str, Any]]:
    """The finished table's places as the tournament counted them (its result projection)."""
    rows = [row for row in table.result or [] if isinstance(row, dict) and row.get("placement")]
    names = dict(Entry.objects.filter(pk__in=[row.get("entry") for row in rows]).values_list("pk", "name"))
    out = [{"name": names.get(row.get("entry"), "?"), "placement": row["placement"]} for row in rows]
    return sorted(out, key=lambda row: row["placement"])


def _mine(table: Table, user: Any, session: Any = None) -> set[int]:
    walk_in = session_entries(session, table.round.tournament_id) if session is not None else set()
    if not getattr(user, "is_authenticated", False):
        return walk_in
    mine = Entry.objects.filter(tournament_id=table.round.tournament_id).filter(
        Q(user=user) | Q(members__user=user)
    )
    return set(mine.values_list("pk", flat=True)) | walk_in


def standings_near(table: Table, user: Any, session: Any = None) -> dict[str, Any]:
    """The table's stage standings as the end screen shows them: the first `TOP_ROWS` rows,
    then the viewer's own entries' rows further down (`mine`), and how many rows in all."""
    stage = table.round.stage
    rows = standing_rows(table.round.tournament, stage.number)
    mine = _mine(table, user, session)
    shown = [
        {
            "position": position,  # 0 for the first row (a gap before a row further down)
            "rank": row["rank"],
            "entry": row["entry"],
            "name": row["name"],
            "played": row["played"],
            "points": row["points"],
            "mine": row["entry"] in mine,
        }
        for position, row in enumerate(rows)
        if position < TOP_ROWS or row["entry"] in mine
    ]
    return {"stage": {"number": stage.number, "name": stage.name}, "rows": shown, "count": len(rows)}


def links(match_id: str, user: Any, session: Any = None) -> dict[str, Any]:
    table = table_of(match_id)
    if table is None:
        return {"tournament": None}
    tournament = table.round.tournament
    seated = table.seats.filter(entry__in=_mine(table, user, session)).exists()
    return {
        "tournament": {"id": tournament.pk, "name": tournament.name, "status": tournament.status},
        "seated": seated,  # the viewer plays at this table (so has a next one to wait for)
        "round": table.round.number,
        "table": table.number,
        "table_status": table.status,
        "next_match": next_match(table, user, session),
        "placements": placements(table) if table.status == Table.FINISHED else [],
        # once the table's result is in: the standings it changed
        "standings": standings_near(table, user, session) if table.status == Table.FINISHED else None,
        "ruling": deciding_ruling(table),
        # the round's appeal period: until when its tables may be disputed before the next draw
        "appeal": appeals.view(table.round),
    }


def deciding_ruling(table: Table) -> dict[str, Any] | None:
    """The latest ruling that decided the table's result (an award or a disqualification):
    its kind and the referee's reason, shown beside the winner."""
    ruled = Dispute.objects.filter(table=table, status=Dispute.RULED, ruling__kind__in=DECIDING)
    dispute = ruled.order_by("-closed_at", "-pk").first()
    if dispute is None or not dispute.ruling:
        return None
    return {"dispute": dispute.pk, "kind": dispute.ruling["kind"], "reason": dispute.ruling.get("reason", "")}
