"""The tournament log chains its events with the match log's primitive (`cacho.eventlog.chain.link`
over `canonical_json`), and the hashes stored before that change still verify: the golden
values below were computed by the tournament log's own sha256 code, which this replaced."""

from __future__ import annotations

import datetime as dt
import inspect
from typing import Any

import pytest

from cacho.eventlog import chain
from tests.tournaments.helpers import club_with_organiser
from tournaments.models import TournamentEvent
from tournaments.services import create_tournament, log, register

AT = dt.datetime(2026, 12, 1, 20, 15, 30, 123456, tzinfo=dt.UTC)
CREATED = {"name": "Jueves ñandú", "options": {"b": 2, "a": [1, "x"]}}
# Computed with `sha256((previous + canonical JSON of the body).encode())` written out in
# tournaments/services/log.py, before it called the shared primitive.
GOLDEN_FIRST = "19053972fc8121e7bd1488681a05698964cfd7dcf202a6d2402374a21242638d"
GOLDEN_SECOND = "7d93d0d96114a8b78f1b847fb5e4abf16bcb066fac0ddff7c874e9553da07cfc"
GOLDEN_OPTIONS = "3f954f712f14a490584430c8f3c319601bf481e6b0dfee2546830bdbdcf33f5a"


def test_the_tournament_log_hashes_with_the_match_logs_primitive() -> None:
    body = {
        "tournament": 7,
        "version": 1,
        "type": "tournament-created",
        "payload": CREATED,
        "actor": "user:3",
        "recorded_at": chain.micros(AT),
    }
    assert log.event_hash("", 7, 1, "tournament-created", CREATED, "user:3", AT) == chain.link(
        "", chain.canonical_json(body)
    )
    assert "hashlib" not in inspect.getsource(log)  # no second chain written out by hand


def test_hashes_made_before_the_shared_primitive_recompute_the_same() -> None:
    first = log.event_hash("", 7, 1, "tournament-created", CREATED, "user:3", AT)
    assert first == GOLDEN_FIRST
    later = AT + dt.timedelta(microseconds=1)
    assert log.event_hash(first, 7, 2, "registered", {"entry": 11, "name": "Ana"}, "system", later) == (
        GOLDEN_SECOND
    )
    assert log.sha256_json({"b": 1, "a": "ñ"}) == GOLDEN_OPTIONS == chain.digest({"a": "ñ", "b": 1})


@pytest.mark.django_db
def test_a_stored_log_verifies_link_by_link(make_user: Any) -> None:
    club, owner = club_with_organiser(make_user)
    stages = [{"name": "swiss", "format": "swiss", "params": {"rounds": 1, "table_size": 3}}]
    tournament = create_tournament(club.pk, owner, name="Chained", ruleset="dudo", stages=stages)
    for name in ("Ana", "Beto", "Caro"):
        register(tournament.pk, owner, name=name)
    tournament.refresh_from_db()
    valid, head = log.verify_chain(tournament.pk)
    assert valid and head == tournament.head_hash
    previous = ""
    for event in TournamentEvent.objects.filter(tournament=tournament).order_by("version"):
        body = {
            "tournament": tournament.pk,
            "version": event.version,
            "type": event.type,
            "payload": event.payload,
            "actor": event.actor,
            "recorded_at": chain.micros(event.recorded_at),
        }
        assert event.hash == chain.link(previous, chain.canonical_json(body))
        previous = event.hash
    assert previous == head
