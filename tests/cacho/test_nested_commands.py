"""Commands inside a caller's transaction (a tournament forfeiting two seats of a table at
once): each sees the one before, and a stale attempt leaves the caller's transaction usable,
on PostgreSQL and on SQLite."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from cacho.models import DiceSeed, Event, Match
from cacho.services import matches
from cacho.services.verify import verify_match
from tests.cacho.helpers import command_id

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]


@pytest.fixture(autouse=True)
def timers_off(settings: Any) -> None:
    settings.CACHO_TIMERS = "off"


def test_two_players_leave_in_one_transaction() -> None:
    match = matches.create_match("dudo", ["ana", "beto", "caro", "dani"], first_seat=0)
    with transaction.atomic():
        # The first leaver restarts the round (new dice, a new seed); the second command
        # starts from the cached state, which is stale inside this transaction.
        matches.submit(match.pk, "ana", {"type": "abandon"}, command_id())
        matches.submit(match.pk, "beto", {"type": "abandon"}, command_id())
        matches.submit(match.pk, "caro", {"type": "abandon"}, command_id())
    types = list(Event.objects.filter(stream_id=match.pk).order_by("version").values_list("type", flat=True))
    assert (
        types
        == [
            "match_started",
            "round_started",
            "player_abandoned",
            "round_started",
            "player_abandoned",
            "round_started",
            "player_abandoned",
        ][: len(types)]
    )
    assert types.count("player_abandoned") == 3
    stored = Match.objects.get(pk=match.pk)
    assert stored.status == Match.STATUS_FINISHED
    assert verify_match(stored)["valid"]
    scopes = sorted(DiceSeed.objects.filter(match_id=match.pk).values_list("scope", flat=True))
    assert scopes == sorted(set(scopes))  # one seed per round, never inserted twice
