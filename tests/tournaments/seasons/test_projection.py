"""The season standings as a projection of the tournaments' final rankings: they follow
each evening as it finishes, equal a rebuild from scratch, follow a ruling that changes a
place, and sum one player's evenings across the clubs of a league."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from cacho.models import Match
from tests.tournaments.helpers import club_with_organiser, play_bidding_match
from tests.tournaments.seasons.helpers import evening, one_table
from tournaments.clubs.members import create_club
from tournaments.clubs.members import grant_role as add_member
from tournaments.models import Membership, Table
from tournaments.seasons import leagues, projection
from tournaments.seasons.models import Season, SeasonLine, SeasonResult
from tournaments.seasons.scoring import Evening
from tournaments.seasons.scoring import standings as scoring_standings
from tournaments.seasons.seasons import create_season, update_season
from tournaments.seasons.selection import scoring_of
from tournaments.services import create_tournament, register, standings, start_tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]

TODAY = timezone.localdate()


def lines(season: Season) -> list[tuple[int, str, float, int]]:
    return [
        (line.rank, line.name, line.total, line.played)
        for line in SeasonLine.objects.filter(season=season).order_by("position")
    ]


def snapshot(season: Season) -> tuple[list[Any], list[Any]]:
    results = sorted(
        SeasonResult.objects.filter(season=season).values_list(
            "tournament_id", "player", "user_id", "entry_id", "name", "place", "points"
        )
    )
    rows = list(
        SeasonLine.objects.filter(season=season)
        .order_by("position")
        .values_list(
            "position", "rank", "player", "user_id", "name", "total", "played", "evenings", "tiebreak"
        )
    )
    return results, rows


def season_of(club: Any, organiser: Any, **extra: Any) -> Season:
    return create_season(
        organiser,
        club=club.pk,
        name="Jueves de Cacho",
        starts_on=TODAY - dt.timedelta(days=1),
        ends_on=TODAY + dt.timedelta(days=30),
        **extra,
    )


def test_the_standings_follow_each_evening_best_two_of_three_and_equal_a_rebuild(make_user: Any) -> None:
    club, organiser = club_with_organiser(make_user, "jueves")
    ana, beto = make_user("ana"), make_user("beto")
    users = {"Ana": ana, "Beto": beto}
    season = season_of(club, organiser, best_of=2, participation=1)
    assert lines(season) == []

    evening(club, organiser, "Jueves 1", {"Ana": 1, "Beto": 2, "Caro": 3, "Dani": 4}, users)
    assert lines(season) == [(1, "Ana", 26, 1), (2, "Beto", 19, 1), (3, "Caro", 16, 1), (4, "Dani", 13, 1)]

    evening(club, organiser, "Jueves 2", {"Beto": 1, "Caro": 2, "Dani": 3, "Ana": 4}, users)
    assert lines(season) == [(1, "Beto", 45, 2), (2, "Ana", 39, 2), (3, "Caro", 35, 2), (4, "Dani", 29, 2)]

    # Caro is a guest: known by her name (case aside) across the evenings.
    evening(club, organiser, "Jueves 3", {"CARO": 1, "Ana": 2, "Beto": 3, "Dani": 4}, users)
    # best 2 of 3: Ana 26+19 (drops 13), Beto 26+19 (drops 16), Caro 26+19 (drops 16)
    got = lines(season)
    assert [row[2] for row in got] == [45, 45, 45, 29] and [row[3] for row in got] == [3, 3, 3, 3]
    # one 1st and one 2nd each; Beto and Caro have a 3rd place, Ana none; Beto and Caro: the
    # last evening (Caro 1st)
    assert [row[1] for row in got] == ["CARO", "Beto", "Ana", "Dani"]
    beto_line = SeasonLine.objects.get(season=season, name="Beto")
    assert [e["counted"] for e in beto_line.evenings] == [True, True, False]

    before = snapshot(season)
    assert projection.rebuild() == 1
    assert snapshot(season) == before
    projection.project_season(season.pk)
    assert snapshot(season) == before

    # Editing the scoring projects the season again: every evening counts now.
    update_season(season.pk, organiser, best_of=None, points=[10, 5, 2])
    totals = {name: total for _, name, total, _ in lines(season)}
    assert totals == {"Ana": 10 + 0 + 5 + 3, "Beto": 5 + 10 + 2 + 3, "CARO": 2 + 5 + 10 + 3, "Dani": 2 + 3}


def test_picked_tournaments_only_and_not_outside_the_club(make_user: Any) -> None:
    club, organiser = club_with_organiser(make_user, "picked")
    other, other_owner = club_with_organiser(make_user, "elsewhere")
    first = evening(club, organiser, "Counted", {"Ana": 1, "Beto": 2})
    evening(club, organiser, "Not picked", {"Ana": 2, "Beto": 1})
    season = season_of(club, organiser, selection=Season.PICKED, tournaments=[first.pk])
    assert lines(season) == [(1, "Ana", 25, 1), (2, "Beto", 18, 1)]
    stranger = evening(other, other_owner, "Elsewhere", {"Ana": 1, "Beto": 2})
    with pytest.raises(Exception) as refused:
        update_season(season.pk, organiser, tournaments=[first.pk, stranger.pk])
    assert getattr(refused.value, "code", "") == "tournament-outside-season"
    assert lines(season) == [(1, "Ana", 25, 1), (2, "Beto", 18, 1)]


def test_a_ruling_that_changes_a_place_changes_the_season(make_user: Any) -> None:
    club, organiser = club_with_organiser(make_user, "ruled")
    referee = make_user("rita")
    add_member(club.pk, referee, Membership.REFEREE, organiser)
    players = {name: make_user(name) for name in ("ana", "beto")}
    season = season_of(club, organiser)
    tournament = create_tournament(club.pk, organiser, name="Jueves", ruleset="dudo", stages=one_table(2))
    for name, user in players.items():
        register(tournament.pk, organiser, name=name, user=user)
    start_tournament(tournament.pk, organiser)
    table = Table.objects.get(round__tournament=tournament)
    play_bidding_match(table.match_id, random.Random(11))
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    table.refresh_from_db()
    winner = next(line["entry"] for line in table.result if line["placement"] == 1)
    loser = next(line["entry"] for line in table.result if line["placement"] == 2)
    loser_name = table.seats.get(entry_id=loser).entry.name
    winner_name = table.seats.get(entry_id=winner).entry.name
    assert lines(season) == [(1, winner_name, 25, 1), (2, loser_name, 18, 1)]

    seat_of = dict(Match.objects.get(pk=table.match_id).seats.values_list("index", "name"))
    by_entry = {s.entry_id: seat_of[s.match_seat] for s in table.seats.all()}
    party = APIClient()
    party.force_authenticate(players[loser_name])
    filed = party.post(f"/api/matches/{table.match_id}/disputes", {"reason": "wrong-result"})
    assert filed.status_code == 201, filed.json()
    ref = APIClient()
    ref.force_authenticate(referee)
    ruling = {"kind": "award-result", "placements": {by_entry[loser]: 1, by_entry[winner]: 2}}
    preview = ref.post(f"/api/disputes/{filed.json()['id']}/preview", {"ruling": ruling}, format="json")
    assert preview.status_code == 200
    assert lines(season) == [(1, winner_name, 25, 1), (2, loser_name, 18, 1)]  # a preview changes nothing
    ruled = ref.post(
        f"/api/disputes/{filed.json()['id']}/rule", {"ruling": ruling, "reason": "the log"}, format="json"
    )
    assert ruled.status_code == 200, ruled.json()
    tournament.refresh_from_db()
    assert [p.entry_id for p in standings.final_ranking(tournament)] == [loser, winner]
    assert lines(season) == [(1, loser_name, 25, 1), (2, winner_name, 18, 1)]
    before = snapshot(season)
    projection.rebuild()
    assert snapshot(season) == before


def test_a_league_of_two_clubs_gives_a_player_of_both_one_line(make_user: Any) -> None:
    north, north_owner = club_with_organiser(make_user, "north")
    south, south_owner = club_with_organiser(make_user, "south")
    boss = make_user("boss")
    league = leagues.create_league("Liga de La Paz", boss)
    leagues.invite_club(league.pk, north.pk, boss)
    leagues.invite_club(league.pk, south.pk, boss)
    with pytest.raises(Exception) as refused:  # the league does not answer for the club
        leagues.answer_invitation(league.pk, north.pk, boss, accept=True)
    assert getattr(refused.value, "code", "") == "owner-only"
    leagues.answer_invitation(league.pk, north.pk, north_owner, accept=True)
    season = create_season(
        boss,
        league=league.pk,
        name="Liga 2026",
        starts_on=TODAY - dt.timedelta(days=1),
        ends_on=TODAY + dt.timedelta(days=1),
    )
    ana = make_user("ana")
    evening(north, north_owner, "North night", {"Ana": 1, "Beto": 2}, {"Ana": ana})
    # South has not accepted yet: its evening does not count
    evening(south, south_owner, "South night", {"Ana M.": 2, "Caro": 1}, {"Ana M.": ana})
    assert lines(season) == [(1, "Ana", 25, 1), (2, "Beto", 18, 1)]
    leagues.answer_invitation(league.pk, south.pk, south_owner, accept=True)
    projection.project_season(season.pk)
    # one line for Ana's account, whatever name her entries had: 25 + 18
    assert lines(season) == [(1, "Ana M.", 43, 2), (2, "Caro", 25, 1), (3, "Beto", 18, 1)]
    assert SeasonLine.objects.filter(season=season, user=ana).count() == 1
    # the league's referee referees the tournaments its season counts; a stranger does not
    rita = make_user("rita")
    leagues.set_role(league.pk, "rita", "referee", boss)
    from tournaments.services.disputes import is_referee

    south_night = south.tournaments.get(name="South night")
    assert is_referee(rita, south_night) and not is_referee(make_user("nobody"), south_night)


@st.composite
def evenings(draw: Any) -> list[dict[str, int]]:
    """Two to three evenings of three to five of six regulars, places shared at random."""
    out = []
    for _ in range(draw(st.integers(min_value=2, max_value=3))):
        present = draw(st.lists(st.sampled_from(REGULARS), min_size=3, max_size=5, unique=True))
        places: dict[str, int] = {}
        for i, player in enumerate(present):
            shares = i > 0 and draw(st.integers(min_value=0, max_value=3)) == 0
            places[player] = places[present[i - 1]] if shares else i + 1
        out.append(places)
    return out


REGULARS = ["Ana", "Beto", "Caro", "Dani", "Eva", "Fede"]
_runs = iter(range(1, 10_000))


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(evenings(), st.sampled_from([None, 1, 2]))
def test_incremental_equals_rebuild_and_the_pure_rules_for_any_evenings(
    django_user_model: Any, played: list[dict[str, int]], best_of: int | None
) -> None:
    run = next(_runs)
    owner = django_user_model.objects.create_user(f"owner-{run}", password="pw-1234567")
    club = create_club(f"Club {run}", f"club-{run}", owner)
    ana = django_user_model.objects.create_user(f"ana-{run}", password="pw-1234567")
    season = season_of(club, owner, best_of=best_of, participation=1)
    finished = []
    for number, places in enumerate(played, start=1):
        finished.append(evening(club, owner, f"Evening {number}", places, {"Ana": ana}))
        after_each = snapshot(season)
        projection.project_season(season.pk)
        assert snapshot(season) == after_each  # the incremental rows are the rebuilt ones
    names = {}
    pure = []
    for tournament in finished:
        ranking = standings.final_ranking(tournament)
        entries = {e.pk: e for e in tournament.entries.all()}
        names.update({projection.player_key(e): e.name for e in entries.values()})
        pure.append(
            Evening(
                str(tournament.pk), {projection.player_key(entries[p.entry_id]): p.place for p in ranking}
            )
        )
    expected = [
        (line.rank, names[line.player], line.total, line.played)
        for line in scoring_standings(pure, scoring_of(season))
    ]
    assert lines(season) == expected
