"""Registration, check-in, the committed draw, late withdrawal and idempotent advancement."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest
from django.utils import timezone

from cacho.models import Event
from tests.tournaments.helpers import club_with_organiser, register_bots
from tournaments.competition.seeding import verify_draw
from tournaments.models import Entry, Round, Table, Tournament, TournamentEvent
from tournaments.services import (
    TournamentError,
    check_in,
    create_tournament,
    log,
    register,
    start_tournament,
    sweep,
    withdraw,
)
from tournaments.services.bots import play_bots_until_stuck
from tournaments.tasks import advance_tournament

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite_too]

SMALL_SWISS = [{"name": "swiss", "format": "swiss", "params": {"rounds": 2, "table_size": 3}}]


def small(make_user: Any, **extra: Any) -> tuple[Tournament, Any]:
    club, owner = club_with_organiser(make_user)
    tournament = create_tournament(club.pk, owner, name="Small", ruleset="dudo", stages=SMALL_SWISS, **extra)
    return tournament, owner


def test_check_in_deadline_drops_no_shows(make_user: Any) -> None:
    deadline = timezone.now() + dt.timedelta(hours=1)
    tournament, owner = small(make_user, checkin_deadline=deadline)
    entries = register_bots(tournament, owner, 8)
    for entry in entries[:6]:
        check_in(entry.pk, owner)
    with pytest.raises(TournamentError) as late:
        check_in(entries[6].pk, owner, now=deadline + dt.timedelta(seconds=1))
    assert late.value.code == "checkin-closed"
    with pytest.raises(TournamentError) as early:
        start_tournament(tournament.pk, owner, now=deadline - dt.timedelta(minutes=1))
    assert early.value.code == "checkin-open"
    start_tournament(tournament.pk, owner, now=deadline + dt.timedelta(minutes=1))
    statuses = dict(Entry.objects.filter(tournament=tournament).values_list("pk", "status"))
    assert [statuses[e.pk] for e in entries[6:]] == [Entry.NO_SHOW, Entry.NO_SHOW]
    seated = set(Table.objects.filter(round__tournament=tournament).values_list("seats__entry", flat=True))
    assert seated == {e.pk for e in entries[:6]}
    dropped = TournamentEvent.objects.get(tournament=tournament, type=log.NO_SHOWS_DROPPED)
    assert dropped.payload["entries"] == [e.pk for e in entries[6:]]


def test_random_draw_is_committed_and_reproducible(make_user: Any) -> None:
    tournament, owner = small(make_user)
    committed = TournamentEvent.objects.get(tournament=tournament, type=log.DRAW_COMMITTED)
    register_bots(tournament, owner, 6)
    start_tournament(tournament.pk, owner)
    seeded = TournamentEvent.objects.get(tournament=tournament, type=log.SEEDED)
    assert committed.version < seeded.version
    data = seeded.payload
    assert data["commitment"] == committed.payload["commitment"]
    assert verify_draw(data["entries"], data["seed"], committed.payload["commitment"], data["order"])
    assert not verify_draw(data["entries"], "00" * 32, committed.payload["commitment"], data["order"])
    seeds = dict(Entry.objects.filter(tournament=tournament).values_list("pk", "seed"))
    assert [str(pk) for pk, _ in sorted(seeds.items(), key=lambda kv: kv[1])] == data["order"]
    valid, head = log.verify_chain(tournament.pk)
    assert valid and head == Tournament.objects.get(pk=tournament.pk).head_hash


def test_rules_are_frozen_and_identified_by_hash(make_user: Any) -> None:
    tournament, owner = small(make_user)
    register_bots(tournament, owner, 6)
    start_tournament(tournament.pk, owner)
    started = TournamentEvent.objects.get(tournament=tournament, type=log.STARTED)
    assert started.payload["options_hash"] == log.sha256_json(tournament.options)
    from tournaments.services import update_settings

    with pytest.raises(TournamentError) as frozen:
        update_settings(tournament.pk, owner, options={"calza_only_if_lost_dice": True})
    assert frozen.value.code == "tournament-frozen"
    # players register themselves no more (an organiser's entry now is a late entry, where
    # the format allows: test_evening_desk)
    latecomer = make_user("latecomer")
    with pytest.raises(TournamentError) as closed:
        register(tournament.pk, latecomer, name="Late", user=latecomer)
    assert closed.value.code == "registration-closed"


def test_the_sweep_catches_up_once_and_advancement_is_idempotent(make_user: Any) -> None:
    """Here no commit's after-commit work runs (one test transaction): the matches end
    without their listener, as if its task were lost; the sweep is the safety net."""
    tournament, owner = small(make_user)
    register_bots(tournament, owner, 6)
    start_tournament(tournament.pk, owner)
    assert advance_tournament(tournament.pk) is None  # round 1 still playing
    play_bots_until_stuck(tournament, random.Random(3))
    assert Round.objects.get(tournament=tournament, number=1).status == Round.PLAYING
    assert sweep() == 2  # both tables recorded, then round 2 drawn
    assert Round.objects.get(tournament=tournament, number=1).status == Round.FINISHED
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert [advance_tournament(tournament.pk) for _ in range(3)] == [None, None, None]
    assert sweep() == 0  # nothing is recorded twice
    created = TournamentEvent.objects.filter(tournament=tournament, type=log.ROUND_CREATED).count()
    assert created == 2


def test_late_withdrawal_forfeits_what_is_left(make_user: Any) -> None:
    tournament, owner = small(make_user)
    entries = register_bots(tournament, owner, 6)
    start_tournament(tournament.pk, owner)
    leaver = entries[0]
    table = Table.objects.get(round__tournament=tournament, seats__entry=leaver)
    withdraw(leaver.pk, owner)
    abandoned = Event.objects.filter(stream_id=table.match_id, type="player_abandoned")
    assert [e.payload["player"] for e in abandoned] == [leaver.name]
    rng = random.Random(5)
    play_bots_until_stuck(tournament, rng)
    sweep()
    table.refresh_from_db()
    mine = next(r for r in table.result if r["entry"] == leaver.pk)
    assert mine["placement"] == len(table.result)
    second = Round.objects.get(tournament=tournament, number=2)
    seated = set(Table.objects.filter(round=second).values_list("seats__entry", flat=True))
    assert leaver.pk not in seated and len(seated) == 5
    leaver.refresh_from_db()
    assert leaver.status == Entry.WITHDRAWN and leaver.withdrawn_after_round == 0
    with pytest.raises(TournamentError) as again:
        withdraw(leaver.pk, owner)
    assert again.value.code == "entry-not-playing"


def test_the_tournament_log_is_append_only(make_user: Any) -> None:
    from django.db import transaction
    from django.db.utils import DatabaseError

    tournament, _owner = small(make_user)
    assert TournamentEvent.objects.filter(tournament=tournament).exists()
    for change in (
        lambda: TournamentEvent.objects.filter(tournament=tournament).update(type="forged"),
        lambda: TournamentEvent.objects.filter(tournament=tournament).delete(),
    ):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            change()
    assert not TournamentEvent.objects.filter(type="forged").exists()
