"""Integrity signals through the API, from real matches played through the match write
path: a 1v1 table whose two players never doubt each other (every round ends in a calza)
beside one that doubts every bid; the club's referees see the pair flagged with its rounds,
anyone else gets the API's error codes."""

from __future__ import annotations

from typing import Any

import pytest

from cacho.models import Event
from tests.tournaments.disputes import Club
from tests.tournaments.integrity import play_tables
from tournaments.integrity import signals
from tournaments.models import Table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]

ONE_ROUND_1V1 = [{"name": "swiss", "format": "swiss", "params": {"rounds": 1, "table_size": 2}}]


def _diagnosis(club: Club) -> list[tuple[Any, ...]]:
    """Per match: its rounds, answers and doubts as the reader sees them (a failure's message)."""
    from tournaments.integrity.reader import club_rounds

    rounds = club_rounds(club.tournament.club_id)
    found = {}
    for r in rounds:
        row = found.setdefault(r.match, [0, 0, 0, set()])
        row[0] += 1
        row[1] += len(r.answers)
        row[2] += sum(a.kind == "dudo" for a in r.answers)
        row[3] |= {(a.player, a.bidder, a.kind) for a in r.answers}
    return [(m, *row) for m, row in found.items()]


@pytest.fixture
def played(club: Club) -> tuple[Club, list[str]]:
    """The dispute tests' club (a 2-round Swiss of 1v1 tables): round 1's table 1 colludes
    and so does that pair wherever it meets again; every other table doubts every bid.
    Returns the club and the colluding pair's names."""
    first = Table.objects.get(round__tournament=club.tournament, round__number=1, number=1)
    pair = sorted(first.seats.values_list("entry__name", flat=True))
    for number in (1, 2):  # round 2 is drawn once round 1's matches end
        play_tables(Table.objects.filter(round__tournament=club.tournament, round__number=number), pair)
    return club, pair


def test_the_referee_sees_a_pair_that_never_doubts_each_other(played: tuple[Club, list[str]]) -> None:
    club, pair = played
    url = f"/api/clubs/{club.tournament.club_id}/signals"
    answer = club.client(club.referee).get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["club"] == club.tournament.club_id and body["rounds"] > 10
    assert "never an automatic penalty" in body["note"]
    hits = [s for s in body["signals"] if s["kind"] == signals.NEVER_DOUBTS]
    assert [s["players"] for s in hits] == [pair], _diagnosis(club)
    hit = hits[0]
    assert hit["p_value"] <= signals.ALPHA and hit["figures"]["doubts"] == 0
    assert hit["figures"]["answers"] >= signals.MIN_CHANCES and hit["strength"] >= 3
    assert pair[0] in hit["hint"] and pair[1] in hit["hint"] and hit["kind_label"]

    colluding = {
        str(t.match_id)
        for t in Table.objects.filter(round__tournament=club.tournament)
        if sorted(t.seats.values_list("entry__name", flat=True)) == pair
    }
    assert hit["evidence"] and {e["match"] for e in hit["evidence"]} <= colluding
    for evidence in hit["evidence"]:
        # each link is the replay page at the event that ended the round: a resolved call
        assert evidence["url"] == f"/matches/{evidence['match']}/replay#v={evidence['version']}"
        event = Event.objects.get(stream_id=evidence["match"], version=evidence["version"])
        assert event.type == "round_resolved" and event.payload["result"] == "calza"
    first = [e["round"] for e in hit["evidence"] if e["match"] == str(club.table_of(pair[0]).match_id)]
    assert sorted(first) == list(range(1, len(first) + 1))
    spanish = club.client(club.referee).get(url, HTTP_ACCEPT_LANGUAGE="es").json()
    assert "nunca una sanción automática" in spanish["note"]
    assert any("sin dudar ni una sola vez" in s["hint"] for s in spanish["signals"])

    # the queue page's endpoint: every club the caller referees
    queue = club.client(club.referee).get("/api/signals").json()
    assert [c["club"] for c in queue["clubs"]] == [club.tournament.club_id]
    assert [s["players"] for s in queue["clubs"][0]["signals"] if s["kind"] == signals.NEVER_DOUBTS] == [pair]


def test_only_the_clubs_referees_see_its_signals(played: tuple[Club, list[str]], make_user: Any) -> None:
    club, pair = played
    url = f"/api/clubs/{club.tournament.club_id}/signals"
    player = club.client(club.players[pair[0]]).get(url)
    assert (player.status_code, player.json()["code"]) == (403, "signals-not-referee")
    staff = club.client(make_user("staffer", is_staff=True)).get(url)
    assert (staff.status_code, staff.json()["code"]) == (403, "signals-not-referee")
    assert club.client(None).get(url).status_code in (401, 403)
    assert club.client(club.organiser).get(url).status_code == 200
    missing = club.client(club.referee).get("/api/clubs/999999/signals")
    assert (missing.status_code, missing.json()["code"]) == (404, "not-found")
    # a player refereeing no club sees no club's signals on the queue
    assert club.client(club.players[pair[0]]).get("/api/signals").json()["clubs"] == []


def test_a_disputes_review_shows_the_signals_naming_its_players(
    played: tuple[Club, list[str]], make_user: Any
) -> None:
    """A collusion report on a colluding player's round-2 table: its review lists the club's
    signals that name a player at that table (the planted pair among them), none other."""
    club, pair = played
    table = club.table_of(pair[0], number=2)
    seated = sorted(table.seats.values_list("entry__name", flat=True))
    reporter = club.players[next(name for name in seated if name != pair[0])]
    filed = club.client(reporter).post(
        f"/api/matches/{table.match_id}/disputes",
        {"reason": "collusion", "text": "They never doubt each other", "round": 1},
        format="json",
    )
    assert filed.status_code == 201, filed.json()
    url = f"/api/disputes/{filed.json()['id']}/signals"

    answer = club.client(club.referee).get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["players"] == seated and body["match"] == str(table.match_id)
    everything = club.client(club.referee).get(f"/api/clubs/{club.tournament.club_id}/signals").json()
    assert body["rounds"] == everything["rounds"]
    naming = [s for s in everything["signals"] if set(s["players"]) & set(seated)]
    assert [(s["kind"], s["players"]) for s in body["signals"]] == [(s["kind"], s["players"]) for s in naming]
    found = [[s["kind"], s["players"]] for s in body["signals"]]
    assert [signals.NEVER_DOUBTS, pair] in found, _diagnosis(club)
    for signal in body["signals"]:
        for evidence in signal["evidence"]:
            assert evidence["here"] is (evidence["match"] == str(table.match_id))

    # the table's players see the dispute, never the signals; nor does a referee of no club of it
    for user in (reporter, club.players[pair[0]]):
        refused = club.client(user).get(url)
        assert (refused.status_code, refused.json()["code"]) == (403, "signals-not-referee")
    stranger = club.client(make_user("outsider")).get(url)
    assert (stranger.status_code, stranger.json()["code"]) == (403, "forbidden")
    missing = club.client(club.referee).get("/api/disputes/999999/signals")
    assert (missing.status_code, missing.json()["code"]) == (404, "not-found")


def test_a_dispute_before_any_finished_match_has_no_signals(club: Club) -> None:
    """A live round-1 table, nothing finished in the club yet: the review's signals are empty,
    read from no round, and still name the table's players."""
    table = club.table_of("ana")
    filed = club.client(club.players["ana"]).post(
        f"/api/matches/{table.match_id}/disputes", {"reason": "other", "round": 1}, format="json"
    )
    assert filed.status_code == 201, filed.json()
    body = club.client(club.referee).get(f"/api/disputes/{filed.json()['id']}/signals").json()
    seated = sorted(table.seats.values_list("entry__name", flat=True))
    assert (body["players"], body["signals"], body["rounds"]) == (seated, [], 0)
