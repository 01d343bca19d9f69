"""Services mode: a finished table reaches its tournament through the broker and a real
Celery worker (the match server's listener queues `tournaments.record_match`; the round's
last result queues `tournaments.advance_tournament`), within a couple of seconds."""

from __future__ import annotations

import itertools
import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from cacho.services import matches as match_service
from tournaments.clubs.members import create_club
from tournaments.models import Round, Table, Tournament
from tournaments.services import create_tournament, register, start_tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

_commands = itertools.count(1)
WITHIN = 5.0


def wait_for(check: Any, within: float = WITHIN) -> float:
    started = time.monotonic()
    while not check():
        assert time.monotonic() - started < within, "the worker did not get there in time"
        time.sleep(0.05)
    return time.monotonic() - started


def test_a_worker_records_each_table_and_draws_the_next_round(worker: object, settings: Any) -> None:
    settings.CACHO_TIMERS = "off"
    users = get_user_model()
    organiser = users.objects.create(username="organiser")
    club = create_club("Club", "club", organiser)
    tournament = create_tournament(
        club.pk,
        organiser,
        name="Jueves",
        ruleset="dudo",
        stages=[{"name": "swiss", "format": "swiss", "params": {"rounds": 2, "table_size": 2}}],
    )
    for name in ("ana", "beto", "caro", "dani"):
        register(tournament.pk, organiser, name=name)
    start_tournament(tournament.pk, organiser)
    waits = []
    for number in (1, 2):
        tables = list(Table.objects.filter(round__tournament=tournament, round__number=number))
        for table in tables:
            leaver = table.seats.order_by("index").last().entry.name
            match_service.submit(table.match_id, leaver, {"type": "abandon"}, f"leave-{next(_commands)}")
        if number == 1:
            waits.append(wait_for(lambda: Round.objects.filter(tournament=tournament, number=2).exists()))
        else:
            finished = Tournament.objects.filter(pk=tournament.pk, status=Tournament.FINISHED)
            waits.append(wait_for(finished.exists))
    assert all(t.status == Table.FINISHED for t in Table.objects.filter(round__tournament=tournament))
    print(
        f"through the worker: round 2 after {waits[0] * 1000:.0f} ms, finished after {waits[1] * 1000:.0f} ms"
    )
