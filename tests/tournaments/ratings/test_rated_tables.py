"""Ratings through the real path: tables of a tournament played to the end by the match
server reach the ratings (after the commit that finishes them), a referee's ruling that
changes a result refolds the ratings it touches, and a rebuild from the tables gives the
very same values. A tournament created unrated changes no rating."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cacho.models import Match
from tests.tournaments.disputes import Club
from tests.tournaments.helpers import club_with_organiser, play_bidding_match
from tournaments.models import PlayerRating, RatedMatch, RatingChange, Table, Tournament
from tournaments.ratings.fold import MU, SIGMA
from tournaments.ratings.projection import rebuild
from tournaments.services import create_tournament, register, start_tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]


def ratings() -> dict[Any, tuple[float, float, int]]:
    return {r.user_id: (r.mu, r.sigma, r.tables) for r in PlayerRating.objects.filter(family="dudo")}


def changes() -> list[tuple[Any, ...]]:
    return list(
        RatingChange.objects.order_by("key", "match_id", "user_id").values_list(
            "user_id", "match_id", "key", "placement", "mu_before", "sigma_before", "mu", "sigma"
        )
    )


def play_all(club: Club, rng: random.Random) -> None:
    for number in (1, 2):
        for table in Table.objects.filter(round__tournament=club.tournament, round__number=number):
            play_bidding_match(table.match_id, rng)


def test_finished_tables_rate_their_players_and_a_rebuild_agrees(club: Club) -> None:
    play_all(club, random.Random(5))
    assert RatedMatch.objects.count() == 4  # two rounds of two 1v1 tables
    users = {user.pk for user in club.players.values()}
    now = ratings()
    assert set(now) == users and all(tables == 2 for _, _, tables in now.values())
    for table in Table.objects.filter(round__tournament=club.tournament):
        line = {row["entry"]: row["placement"] for row in table.result}
        for change in RatingChange.objects.filter(match_id=table.match_id).select_related("user"):
            entry = club.tournament.entries.get(user=change.user)
            assert change.placement == line[entry.pk]
            assert (change.mu > change.mu_before) == (change.placement == 1)
    first = RatingChange.objects.order_by("key").first()
    assert first is not None and (first.mu_before, first.sigma_before) == (MU, SIGMA)
    stored = changes()
    rebuild()
    assert ratings() == now and changes() == stored


def test_a_ruling_that_changes_a_result_refolds_the_ratings(club: Club) -> None:
    play_all(club, random.Random(5))
    last = club.table_of("ana", 2)
    loser = next(line["entry"] for line in last.result if line["placement"] == 2)
    winner = next(line["entry"] for line in last.result if line["placement"] == 1)
    loser_user = club.tournament.entries.get(pk=loser).user
    before = RatingChange.objects.get(match_id=last.match_id, user=loser_user)
    seat_of = dict(Match.objects.get(pk=last.match_id).seats.values_list("index", "name"))
    by_entry = {s.entry_id: seat_of[s.match_seat] for s in last.seats.all()}
    party = club.client(loser_user)
    dispute = party.post(f"/api/matches/{last.match_id}/disputes", {"reason": "wrong-result"}).json()
    ruling = {"kind": "award-result", "placements": {by_entry[loser]: 1, by_entry[winner]: 2}}
    answer = club.client(club.referee).post(
        f"/api/disputes/{dispute['id']}/rule", {"ruling": ruling, "reason": "the log"}, format="json"
    )
    assert answer.status_code == 200, answer.json()

    after = RatingChange.objects.get(match_id=last.match_id, user=loser_user)
    assert after.placement == 1 and after.mu > after.mu_before and before.mu < before.mu_before
    assert after.key == before.key  # the ruled table keeps its place in the order
    assert (after.mu_before, after.sigma_before) == (before.mu_before, before.sigma_before)
    now, stored = ratings(), changes()
    rebuild()
    assert ratings() == now and changes() == stored


def test_an_unrated_tournament_changes_no_rating(make_user: Any) -> None:
    club, organiser = club_with_organiser(make_user, "casual")
    stages = [{"name": "swiss", "format": "swiss", "params": {"rounds": 1, "table_size": 2}}]
    tournament = create_tournament(
        club.pk, organiser, name="Friendly", ruleset="dudo", stages=stages, rated=False
    )
    for name in ("eva", "fede"):
        register(tournament.pk, organiser, name=name, user=make_user(name))
    start_tournament(tournament.pk, organiser)
    table = Table.objects.get(round__tournament=tournament)
    play_bidding_match(table.match_id, random.Random(2))
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.FINISHED
    assert not RatedMatch.objects.exists() and not PlayerRating.objects.exists()
