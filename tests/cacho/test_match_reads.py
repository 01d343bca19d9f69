"""The match requests' own reads (cacho.services.match_reads) give what the ORM gives: the
same rows, every field of the same value and type, on both databases."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Model
from django.utils import timezone

from cacho.models import Match, Player, Seat, SeatPartner
from cacho.services import match_reads, matches, players
from cacho.services.creation import create_match

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite_too]


def fields_of(instance: Model) -> dict[str, tuple[Any, type]]:
    return {
        f.attname: (getattr(instance, f.attname), type(getattr(instance, f.attname)))
        for f in instance._meta.concrete_fields
    }  # type: ignore[union-attr]


def test_a_match_its_seats_partners_and_players_read_as_the_orm_reads_them() -> None:
    users = get_user_model().objects
    owner, ana, beto, caro, dani = (
        users.create_user(username=name) for name in ("org", "ana", "beto", "caro", "dani")
    )
    dudo = create_match(
        "dudo",
        ["ana", "Beto's team", "bot-1"],
        options={"calza_out_of_turn": True},
        created_by=owner,
        tournament_ref="t:9",
    )
    matches.take_seats(dudo.pk, {0: ana, 1: beto})
    players.label_seats(dudo.pk, {1: "Los Rojos"})
    Seat.objects.filter(match=dudo, index=2).update(bot="plain")
    Match.objects.filter(pk=dudo.pk).update(finished_at=timezone.now(), deadline_ms=2**40, imported=True)
    alalay = create_match("alalay", ["Reds", "Blues"], members=[["caro", "x"], ["dani", "y"]])
    matches.take_seats(alalay.pk, {0: caro})
    matches.add_partners(alalay.pk, {0: [dani]})
    players.forget(beto)  # a deleted account's player: its deleted_at set, its seat's label blanked

    for match in (dudo, alalay):
        read = match_reads.match(match.pk)
        assert read is not None and fields_of(read) == fields_of(Match.objects.get(pk=match.pk))
        seats = match_reads.seats(match.pk)
        expected = list(Seat.objects.filter(match=match).select_related("user").order_by("index"))
        assert [fields_of(seat) for seat in seats] == [fields_of(seat) for seat in expected]
        assert [seat.user and seat.user.get_username() for seat in seats] == [
            seat.user and seat.user.get_username() for seat in expected
        ]
        assert match_reads.partners(match.pk) == list(
            SeatPartner.objects.filter(match=match).order_by("pk").values_list("index", "user_id")
        )
    assert [s.user.get_username() if s.user else None for s in match_reads.seats(dudo.pk)] == [
        "ana",
        "beto",
        None,
    ]
    assert match_reads.partners(alalay.pk) == [(0, dani.pk)]
    assert match_reads.match(uuid.uuid4()) is None

    accounts = [ana.pk, beto.pk, caro.pk, dani.pk, owner.pk]
    read_players = sorted(match_reads.players_of(accounts), key=lambda p: p.pk)
    expected_players = list(Player.objects.filter(user_id__in=accounts).select_related("user").order_by("pk"))
    assert [fields_of(p) for p in read_players] == [fields_of(p) for p in expected_players]
    assert [p.user.get_username() for p in read_players] == [p.user.get_username() for p in expected_players]
    assert any(p.deleted_at is not None for p in read_players)  # beto's, a datetime as the ORM's
    assert match_reads.players_of([]) == []
