"""Finishing a table and its round: the result written on the table, in the tournament log,
and in the standings; a round ends with its last table.

The caller holds the tournament's row lock (`SELECT … FOR UPDATE`) and decides what
follows a finished round (`lifecycle.advance` draws the next one).
"""

from __future__ import annotations

import uuid
from typing import Any

from django.utils import timezone

from tournaments.matches import MatchOutcome, event_hash
from tournaments.models import Dispute, Entry, Round, Table, Tournament
from tournaments.ratings.projection import rate_after_commit
from tournaments.services import appeals, log, standings
from tournaments.services.stage_data import POINTS_RANKED


def table_of(match_id: str) -> Table | None:
    """The table a match is played at, with its round, stage and tournament; None for a
    match id that is not a table's (a casual table, a malformed id)."""
    try:
        key = uuid.UUID(str(match_id))
    except ValueError:
        return None
    return Table.objects.select_related("round__tournament", "round__stage").filter(match_id=key).first()


def finish_table(
    tournament: Tournament,
    table: Table,
    result: list[dict[str, Any]],
    *,
    match_version: int | None,
    actor: str,
    walkover: bool = False,
) -> None:
    """Write a table's result (one line per seat, keyed by entry id) and log it; the caller
    rewrites the standings (`standings_after`), once for several tables."""
    table.result = result
    table.status, table.finished_at = Table.FINISHED, timezone.now()
    table.save(update_fields=["result", "status", "finished_at"])
    payload: dict[str, Any] = {
        "round": table.round.number,
        "table": table.number,
        "match": str(table.match_id) if table.match_id else None,
        "match_version": match_version,
        # The match's chain head at that version: the log anchors the match's events.
        "match_hash": event_hash(table.match_id, match_version),
        "result": result,
    }
    if walkover:
        payload["walkover"] = True
    log.record(tournament, log.TABLE_FINISHED, payload, actor)
    rate_after_commit(table.match_id)


def standings_after(tournament: Tournament, rnd: Round, round_finished: bool) -> None:
    """Rewrite the standings of the round's stage after a table finished: at once in a
    stage ranked on points (players follow them table by table), at the end of the round in
    an elimination (its ranking is the round reached; its standings only break ties)."""
    stage = rnd.stage
    if round_finished or stage.format in POINTS_RANKED:
        standings.write_standings(tournament, stage)


def finish_round_if_done(tournament: Tournament, rnd: Round) -> bool:
    """Finish the round when none of its tables is still playing or under an open dispute;
    True when it did."""
    if rnd.status == Round.FINISHED or rnd.tables.exclude(status=Table.FINISHED).exists():
        return False
    if Dispute.objects.filter(table__round=rnd, status=Dispute.OPEN).exists():
        return False  # nothing is drawn from a result under appeal
    rnd.status, rnd.finished_at = Round.FINISHED, timezone.now()
    rnd.save(update_fields=["status", "finished_at"])
    log.record(tournament, log.ROUND_FINISHED, {"round": rnd.number}, "system")
    appeals.open_period(tournament, rnd)  # the next round waits for appeals
    return True


def forfeit_result(playing: list[dict[str, Any]], forfeited: list[int], size: int) -> list[dict[str, Any]]:
    """A table's result lines: those who played (placements from their match, or first for
    the one entry left of a walkover), then every forfeited seat placed last at the table
    (`size`), together: a forfeit earns what a last place earns, whoever else forfeited."""
    lines = list(playing)
    for entry_id in forfeited:
        lines.append(
            {
                "entry": entry_id,
                "placement": size,
                "dice_left": 0,
                "eliminations": 0,
                "alalay_total": None,
                "instant_win": False,
                "forfeit": True,
            }
        )
    return lines


def result_from_match(table: Table, outcome: MatchOutcome) -> list[dict[str, Any]]:
    """A table's result from its finished match: each seat's line mapped to its entry by its
    seat in the match, then the forfeited seats. A seat forfeited during the match (its
    entry withdrew or did not show up) is a forfeit whatever the match made of it: the
    others keep the order the match gave them, placed from 1."""
    seats = list(table.seats.order_by("index"))
    entry_at = {s.match_seat: s.entry_id for s in seats if s.match_seat is not None}
    left = {s.match_seat for s in seats if s.forfeited}
    kept = [r for r in outcome.results if r.seat not in left]
    playing = [
        {
            "entry": entry_at[r.seat],
            **r.as_dict(),
            # Competition ranking among those who stayed: ahead of r, everyone placed better.
            "placement": 1 + sum(1 for other in kept if other.placement < r.placement),
        }
        for r in kept
    ]
    return forfeit_result(playing, [s.entry_id for s in seats if s.forfeited], len(seats))


def confirming_seats(table: Table) -> list[Any]:
    """The seats whose players confirm a physical table's sheet: those still in its match,
    but an entry that has withdrawn since (it is not there to confirm)."""
    seats = table.seats.select_related("entry")
    return [
        s for s in seats if s.match_seat is not None and not s.forfeited and s.entry.status != Entry.WITHDRAWN
    ]


def sheet_confirmed(table: Table, match_version: int) -> bool:
    """A physical table's sheet is confirmed by every player still at it, at the match's
    version (an entry or an undo after a confirmation makes it stale); an online table
    needs none."""
    if not table.physical:
        return True
    confirmed = {c["entry"] for c in table.confirmations if c.get("version") == match_version}
    return all(seat.entry_id in confirmed for seat in confirming_seats(table))
