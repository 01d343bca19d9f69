"""Results flow from the match's own commit: the match server tells `match_finished`
(named in the setting `CACHO_MATCH_FINISHED`) that a match has ended, after the commit
that ended it; the table's result is recorded and, when that ends the round, the next
one is drawn (`lifecycle.advance_tournament`, after commit). With Redis both steps are
Celery tasks; embedded, Celery runs them in-process, at once.

Both steps are idempotent and keyed by ids. `sweep` is the safety net (Celery beat every
few seconds; embedded, a thread of the serving process): it records every playing table
whose match is over and advances every running tournament whose latest round has
finished. A step that fails is noted on its tournament and never stops the others
(`failures`).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from celery import shared_task
from django.db import close_old_connections, transaction

from tournaments import matches
from tournaments.models import Round, Table, Tournament
from tournaments.services import failures, tables
from tournaments.services.lifecycle import advance_tournament, locked

logger = logging.getLogger(__name__)

SWEEP_EVERY_SECONDS = 5.0


def match_finished(match_id: Any) -> None:
    """The match server's listener: record the match's table (a task, after its commit).
    A match of no tournament table (an open table's, a casual one) sends no task: one read
    says so, where the task's message cost the broker's round trips."""
    if Table.objects.filter(match_id=match_id).exists():
        record_match_task.delay(str(match_id))


@shared_task(name="tournaments.record_match", ignore_result=True)
def record_match_task(match_id: str) -> bool:
    return record_match(match_id)


def record_match(match_id: Any) -> bool:
    """Record the result of the table `match_id` is played at, if it is over; True when a
    result was recorded now. A match of no tournament table is left alone."""
    row = Table.objects.filter(match_id=match_id).values_list("pk", "round__tournament_id").first()
    if row is None:
        return False
    table_id, tournament_id = row
    return bool(failures.run_noted(tournament_id, "result", lambda: record_table_result(table_id)))


def record_table_result(table_id: int) -> bool:
    """The table's result from its match (seats mapped to entries by their seat in the
    match, forfeited seats last); idempotent: only a playing table whose match is over.
    The round's last table schedules the next round's draw after commit."""
    with transaction.atomic():
        tournament_id = (
            Table.objects.filter(pk=table_id).values_list("round__tournament_id", flat=True).first()
        )
        if tournament_id is None:
            return False
        tournament = locked(tournament_id)
        table = Table.objects.select_for_update().select_related("round").get(pk=table_id)
        if table.status != Table.PLAYING or table.match_id is None:
            return False
        outcome = matches.match_result(table.match_id)
        if not outcome.over:
            return False
        if not tables.sheet_confirmed(table, outcome.last_version):
            return False  # a physical table closes once its players confirm the sheet
        result = tables.result_from_match(table, outcome)
        tables.finish_table(tournament, table, result, match_version=outcome.last_version, actor="projection")
        round_finished = tables.finish_round_if_done(tournament, table.round)
        tables.standings_after(tournament, table.round, round_finished)
        if round_finished:
            transaction.on_commit(lambda: advance_tournament.delay(tournament_id))
    return True


@shared_task(name="tournaments.sweep", ignore_result=True)
def sweep() -> int:
    """Catch up with whatever a lost task or a failure left behind; the results recorded.
    A tournament with nothing left behind afterwards has its failure note cleared."""
    recorded = 0
    for match_id in _unrecorded().values_list("match_id", flat=True):
        recorded += record_match(match_id)
    for tournament_id in _waiting():
        advance_tournament(tournament_id)
    # at_time needs the desk's roles (services.entries), which import this module
    from tournaments.notices.triggers import notify_starting
    from tournaments.services.at_time import call_due

    call_due()  # rounds whose clock reached zero in tournaments that call time automatically
    notify_starting()  # "your tournament starts in 15 minutes" (tournaments.notices)
    failures.clear_unless(set(_unrecorded().values_list("round__tournament_id", flat=True)) | _waiting())
    return recorded


def _unrecorded() -> Any:
    """The tables still playing in running tournaments whose match has ended."""
    playing = Table.objects.filter(
        status=Table.PLAYING, match_id__isnull=False, round__tournament__status=Tournament.RUNNING
    )
    ended = matches.finished_among(list(playing.values_list("match_id", flat=True)))
    return playing.filter(match_id__in=ended)


def _waiting() -> set[int]:
    """Running tournaments whose rounds have all finished: the next one is due."""
    finished = Round.objects.filter(tournament__status=Tournament.RUNNING, status=Round.FINISHED)
    waiting = finished.exclude(tournament__rounds__status=Round.PLAYING)
    return set(waiting.values_list("tournament_id", flat=True))


def _sweep_forever(every: float) -> None:
    while True:
        time.sleep(every)
        try:
            sweep()
        except Exception:  # the safety net must outlive any single failure
            logger.exception("tournament sweep")
        finally:
            close_old_connections()


def start_sweeper(every: float = SWEEP_EVERY_SECONDS) -> threading.Thread:
    """Embedded mode has no beat: a daemon thread of the serving process sweeps."""
    thread = threading.Thread(
        target=_sweep_forever, args=(every,), name="cacho-tournament-sweep", daemon=True
    )
    thread.start()
    return thread


__all__ = ["match_finished", "record_match", "record_table_result", "start_sweeper", "sweep"]
