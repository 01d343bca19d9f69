"""A ruling's notices: who filed hears that the dispute was ruled; when the ruling corrects a
finished table, every player of that table hears that a ruling changed their result (and
nobody else does)."""

from __future__ import annotations

import random

import pytest

from cacho.models import Match
from tests.tournaments.disputes import Club
from tests.tournaments.helpers import play_bidding_match
from tournaments.models import Table, Tournament
from tournaments.notices.models import Notice

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]


def test_a_correcting_ruling_tells_the_filer_and_the_table(club: Club) -> None:
    rng = random.Random(5)
    for number in (1, 2):
        for table in Table.objects.filter(round__tournament=club.tournament, round__number=number):
            play_bidding_match(table.match_id, rng)
    club.tournament.refresh_from_db()
    assert club.tournament.status == Tournament.FINISHED
    last = club.table_of("ana", 2)
    loser = next(line["entry"] for line in last.result if line["placement"] == 2)
    winner = next(line["entry"] for line in last.result if line["placement"] == 1)
    seat_of = dict(Match.objects.get(pk=last.match_id).seats.values_list("index", "name"))
    by_entry = {s.entry_id: seat_of[s.match_seat] for s in last.seats.all()}
    filer = club.players[last.seats.get(entry_id=loser).entry.name]
    other = club.players[last.seats.get(entry_id=winner).entry.name]
    answer = club.client(filer).post(f"/api/matches/{last.match_id}/disputes", {"reason": "wrong-result"})
    assert answer.status_code == 201, answer.json()
    dispute = answer.json()["id"]
    ruling = {"kind": "award-result", "placements": {by_entry[loser]: 1, by_entry[winner]: 2}}
    ruled = club.client(club.referee).post(
        f"/api/disputes/{dispute}/rule",
        {"ruling": ruling, "reason": "the log shows the calza"},
        format="json",
    )
    assert ruled.status_code == 200, ruled.json()

    def kinds_of(user: object) -> set[str]:
        return set(
            Notice.objects.filter(user=user).exclude(kind="table-ready").values_list("kind", flat=True)
        )

    assert kinds_of(filer) == {"dispute-ruled", "result-changed"}
    assert kinds_of(other) == {"result-changed"}
    elsewhere = [u for u in club.players.values() if u not in (filer, other)]
    assert all(kinds_of(u) == set() for u in elsewhere)
    listed = club.client(filer).get("/api/me/notices").json()["notices"]
    ruled_notice = next(n for n in listed if n["kind"] == "dispute-ruled")
    assert ruled_notice["link"] == f"/disputes/{dispute}/"
    changed = next(n for n in listed if n["kind"] == "result-changed")
    assert changed["link"] == f"/tournaments/{club.tournament.pk}/"
