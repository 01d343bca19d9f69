"""`manage.py seed_demo` (what `make run` seeds) shows every use of the platform at once: two
live tournaments, a finished one with its podium, exports and the bots' ratings, and a
dispute ruled by the demo referee, whose documented login exists only in development."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from tournaments.models import Club, Dispute, Tournament
from tournaments.services import demo_seed

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]


def test_the_demo_holds_a_finished_tournament_ratings_and_a_ruled_dispute() -> None:
    call_command("seed_demo", stdout=None)
    club = Club.objects.get(slug="demo")
    by_name = {t.name: t for t in club.tournaments.all()}
    assert set(by_name) == {demo_seed.LIVE_DUDO, demo_seed.LIVE_ALALAY, demo_seed.FINISHED}
    assert by_name[demo_seed.LIVE_DUDO].status == by_name[demo_seed.LIVE_ALALAY].status == Tournament.RUNNING
    finished = by_name[demo_seed.FINISHED]
    assert finished.status == Tournament.FINISHED

    anyone = Client()
    standings = anyone.get(f"/api/tournaments/{finished.pk}/standings", HTTP_ACCEPT_LANGUAGE="en").json()
    # The dice are rolled as in any match, so two bots may share a place that no tie-break
    # splits: each place is one more than the number of bots ranked above it.
    places = [line["place"] for line in standings["final_ranking"]]
    assert len(places) == 8 and places[0] == 1
    assert places == [1 + sum(other < place for other in places) for place in places]
    for kind in ("csv", "xlsx", "print"):
        assert anyone.get(f"/api/tournaments/{finished.pk}/standings/{kind}").status_code == 200, kind

    leaderboard = anyone.get("/api/ratings?family=dudo").json()["results"]
    assert {f"bot-dudo-{i:02d}" for i in range(1, 9)} <= {line["username"] for line in leaderboard}
    profile = anyone.get("/api/players/bot-dudo-01/ratings").json()
    dudo = next(r for r in profile["ratings"] if r["family"] == "dudo")
    assert dudo["tables"] >= 2 and dudo["history"][0]["tournament"] == demo_seed.FINISHED

    dispute = Dispute.objects.get(tournament=finished)
    assert dispute.status == Dispute.RULED and dispute.ruling["by"] == demo_seed.REFEREE
    referee = Client()
    assert referee.login(username=demo_seed.REFEREE, password=demo_seed.REFEREE_PASSWORD)
    seen = referee.get(f"/api/disputes/{dispute.pk}", HTTP_ACCEPT_LANGUAGE="en").json()
    assert [step["type"] for step in seen["trail"]] == ["filed", "comment", "ruled"]
    assert seen["can_rule"] is False or seen["status"] == "ruled"
    assert referee.get(f"/disputes/{dispute.pk}/").status_code == 200
    assert referee.get(f"/api/matches/{dispute.match_id}/verify").status_code == 200

    # seeding again adds nothing
    versions = {t.pk: t.version for t in Tournament.objects.all()}
    call_command("seed_demo", stdout=None)
    assert {t.pk: t.version for t in Tournament.objects.all()} == versions
    assert Dispute.objects.count() == 1


def test_the_demo_referee_has_no_password_in_production(settings: Any) -> None:
    settings.CACHO_ENV = "production"
    call_command("seed_demo", stdout=None)
    referee = get_user_model().objects.get(username=demo_seed.REFEREE)
    assert not referee.has_usable_password()
    assert not Client().login(username=demo_seed.REFEREE, password=demo_seed.REFEREE_PASSWORD)
    assert Dispute.objects.get().status == Dispute.RULED  # the demo itself is the same
