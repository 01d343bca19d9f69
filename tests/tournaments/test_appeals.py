"""The appeal period between rounds, and the referees' tools, through the API: a finished
round waits its period before the next draw and a player files in it; the director draws
early; a referee holds the draw; the timer is the row's `draw_at`, which the sweep honours
(a restart loses nothing). Claim and assign, referee-only notes, an appeal linked to the
ruling it appeals, the "resumed" line a ruling adds, the ruling's reason beside the winner,
and a scorekeeper party only to physical tables. Every refusal is `{code, message}` and
stores nothing."""

from __future__ import annotations

import datetime as dt
import itertools
from typing import Any

import pytest
from django.utils import timezone

from cacho.services import matches as match_service
from tests.tournaments.disputes import Club
from tests.tournaments.helpers import seat_named
from tournaments.appeals.models import RefereeNote
from tournaments.clubs.members import grant_role as add_member
from tournaments.models import Dispute, Membership, Round, Table, TournamentEvent
from tournaments.services import advance, sweep, update_settings

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]

_commands = itertools.count(1)


def finish(table: Table) -> None:
    leaver = seat_named(table.match_id, table.seats.order_by("index").last().entry.name)
    match_service.submit(table.match_id, leaver, {"type": "abandon"}, f"appeals-{next(_commands)}")


def stored() -> tuple[int, int, int, int]:
    return (
        TournamentEvent.objects.count(),
        Dispute.objects.count(),
        RefereeNote.objects.count(),
        Round.objects.count(),
    )


def refused(answer: Any, status: int, code: str) -> None:
    body = answer.json()
    assert (answer.status_code, body.get("code")) == (status, code), body
    assert body.get("message"), body


def with_period(club: Club, minutes: int = 2) -> None:
    update_settings(club.tournament.pk, club.organiser, round_appeal_minutes=minutes)


def finish_round_one(club: Club) -> Round:
    for table in Table.objects.filter(round__tournament=club.tournament, round__number=1):
        finish(table)
    return Round.objects.get(tournament=club.tournament, number=1)


def rounds(club: Club) -> int:
    return Round.objects.filter(tournament=club.tournament).count()


def due_now(rnd: Round) -> None:
    """The period has passed (as if the clock had moved on)."""
    Round.objects.filter(pk=rnd.pk).update(draw_at=timezone.now() - dt.timedelta(seconds=1))


def test_the_next_round_waits_for_the_appeal_period_and_a_player_files_within_it(club: Club) -> None:
    with_period(club, 2)
    first = finish_round_one(club)
    assert first.status == Round.FINISHED and rounds(club) == 1
    assert first.draw_at is not None and first.finished_at is not None
    assert first.draw_at - first.finished_at == dt.timedelta(minutes=2)
    assert advance(club.tournament.pk) is None and sweep() == 0 and rounds(club) == 1

    # the end screen and the console read the period
    table = club.table_of("ana")
    place = club.client(club.players["ana"]).get(f"/api/matches/{table.match_id}/tournament").json()
    assert place["appeal"]["waiting"] is True and place["appeal"]["draw_at"] == first.draw_at.isoformat()
    assert 0 < place["appeal"]["remaining_ms"] <= 120_000 and place["appeal"]["minutes"] == 2
    console = club.client(club.organiser).get(f"/api/tournaments/{club.tournament.pk}/console").json()
    assert console["round"]["appeal"]["waiting"] is True

    filed = club.client(club.players["ana"]).post(
        f"/api/matches/{table.match_id}/disputes", {"reason": "misclick", "round": 1}
    )
    assert filed.status_code == 201, filed.json()
    due_now(first)
    assert advance(club.tournament.pk) is None and rounds(club) == 1  # the dispute holds the draw
    assert club.client(club.organiser).get(f"/api/rounds/{first.pk}/appeal").json()["disputed"] is True

    withdrawn = club.client(club.players["ana"]).post(f"/api/disputes/{filed.json()['id']}/withdraw")
    assert withdrawn.status_code == 200
    assert rounds(club) == 2  # drawn once the dispute closed, the period being over


def test_the_sweep_draws_once_the_period_is_over(club: Club) -> None:
    with_period(club, 1)
    first = finish_round_one(club)
    sweep()
    assert rounds(club) == 1
    due_now(first)  # a server restarted meanwhile: the row still says when
    sweep()
    assert rounds(club) == 2
    sweep()  # idempotent
    assert rounds(club) == 2


def test_a_period_of_zero_draws_at_once(club: Club) -> None:
    with_period(club, 0)
    first = finish_round_one(club)
    assert first.draw_at is None and rounds(club) == 2


def test_the_director_draws_now_and_others_may_not(club: Club) -> None:
    with_period(club, 5)
    url = f"/api/tournaments/{club.tournament.pk}/draw-now"
    early = club.client(club.organiser).post(url)
    refused(early, 409, "round-not-finished")
    finish_round_one(club)
    before = stored()
    refused(club.client(club.players["ana"]).post(url), 403, "forbidden")
    refused(club.client(None).post(url), 403, "not-authenticated")
    assert stored() == before
    drawn = club.client(club.organiser).post(url)
    assert drawn.status_code == 200 and drawn.json() == {"round": 2}
    kinds = TournamentEvent.objects.filter(tournament=club.tournament).values_list("type", flat=True)
    assert "appeals-waived" in list(kinds)


def test_a_referee_holds_the_draw_while_a_dispute_is_written(club: Club) -> None:
    with_period(club, 1)
    first = finish_round_one(club)
    hold = f"/api/rounds/{first.pk}/hold-draw"
    before = stored()
    refused(club.client(club.players["ana"]).post(hold, {"reason": "x"}), 403, "forbidden")
    assert stored() == before
    held = club.client(club.referee).post(hold, {"reason": "Ana is writing"})
    assert held.status_code == 200 and held.json()["held"] is True
    refused(club.client(club.referee).post(hold), 409, "draw-already-held")
    refused(
        club.client(club.organiser).post(f"/api/tournaments/{club.tournament.pk}/draw-now"), 409, "draw-held"
    )
    due_now(first)
    sweep()
    assert rounds(club) == 1  # held past the period
    released = club.client(club.referee).post(f"/api/rounds/{first.pk}/release-draw")
    assert released.status_code == 200
    assert rounds(club) == 2
    refused(club.client(club.referee).post(f"/api/rounds/{first.pk}/release-draw"), 409, "draw-done")


def test_claim_assign_and_private_notes(club: Club, make_user: Any) -> None:
    other = make_user("omar")
    add_member(club.tournament.club_id, other, Membership.REFEREE, club.organiser)
    table = club.table_of("ana")
    ana = club.client(club.players["ana"])
    dispute = ana.post(f"/api/matches/{table.match_id}/disputes", {"reason": "other", "round": 1}).json()
    base = f"/api/disputes/{dispute['id']}"

    before = stored()
    refused(ana.post(f"{base}/claim"), 403, "ruling-not-referee")
    refused(ana.post(f"{base}/assign", {"referee": "rita"}, format="json"), 403, "ruling-not-referee")
    refused(ana.post(f"{base}/notes", {"text": "psst"}), 403, "ruling-not-referee")
    refused(ana.get(f"{base}/notes"), 403, "ruling-not-referee")
    refused(
        club.client(club.referee).post(f"{base}/assign", {"referee": "beto"}, format="json"),
        400,
        "dispute-referee-unknown",
    )
    refused(club.client(club.referee).post(f"{base}/notes", {"text": "  "}), 400, "comment-empty")
    assert stored() == before

    claimed = club.client(club.referee).post(f"{base}/claim")
    assert claimed.status_code == 200 and claimed.json()["assigned_to"] == "rita"
    handed = club.client(club.organiser).post(f"{base}/assign", {"referee": "omar"}, format="json")
    assert handed.json()["assigned_to"] == "omar"
    trail = [(s["type"], s["by"], s["details"].get("referee")) for s in handed.json()["trail"]]
    assert trail[-2:] == [("assigned", "rita", "rita"), ("assigned", club.organiser.username, "omar")]

    noted = club.client(other).post(f"{base}/notes", {"text": "Ana's opponent was slow too"})
    assert noted.status_code == 201 and [n["text"] for n in noted.json()["notes"]] == [
        "Ana's opponent was slow too"
    ]
    assert club.client(club.referee).get(base).json()["notes"][0]["by"] == "omar"
    for party in (ana, club.client(club.opponent("ana"))):
        seen = party.get(base)
        assert seen.status_code == 200 and "notes" not in seen.json()
        assert "slow too" not in seen.content.decode()
    logged = TournamentEvent.objects.filter(tournament=club.tournament).values_list("payload", flat=True)
    assert not any("slow too" in str(payload) for payload in logged)  # never in the public log


def test_a_ruling_is_appealed_as_a_new_dispute_linked_to_the_first(club: Club) -> None:
    table = club.table_of("ana")
    ana = club.client(club.players["ana"])
    first = ana.post(f"/api/matches/{table.match_id}/disputes", {"reason": "misclick", "round": 1}).json()
    base = f"/api/disputes/{first['id']}"
    refused(ana.post(f"{base}/appeal", {"text": "again"}), 409, "dispute-not-ruled")
    referee = club.client(club.referee)
    assert referee.post(f"{base}/pause", {"reason": "Looking"}).status_code == 200
    ruled = referee.post(
        f"{base}/rule", {"ruling": {"kind": "uphold"}, "reason": "Play stands"}, format="json"
    )
    assert [s["type"] for s in ruled.json()["trail"]] == ["filed", "paused", "resumed", "ruled"]

    before = stored()
    refused(club.client(club.elsewhere("ana")).post(f"{base}/appeal", {"text": "me too"}), 403, "forbidden")
    assert stored() == before
    appealed = ana.post(f"{base}/appeal", {"text": "The log shows 3×4"})
    assert appealed.status_code == 201, appealed.json()
    second = appealed.json()
    assert second["appeal_of"] == first["id"] and second["status"] == "open"
    assert second["pinned"] == first["pinned"] and second["reason"] == "misclick"
    again = ana.get(base).json()
    assert again["appeals"] == [second["id"]] and again["trail"][-1]["type"] == "appealed"
    refused(ana.post(f"{base}/appeal", {"text": "and again"}), 409, "dispute-appealed-already")

    # a referee revises the appeal's ruling in turn: a third dispute, linked to the second
    referee.post(
        f"/api/disputes/{second['id']}/rule", {"ruling": {"kind": "uphold"}, "reason": "Still"}, format="json"
    )
    revised = referee.post(f"/api/disputes/{second['id']}/appeal", {"text": "A second look"})
    assert revised.status_code == 201 and revised.json()["appeal_of"] == second["id"]


def test_the_rulings_reason_is_beside_the_winner_after_an_award(club: Club) -> None:
    table = club.table_of("ana")
    ana = club.client(club.players["ana"])
    dispute = ana.post(f"/api/matches/{table.match_id}/disputes", {"reason": "timeout", "round": 1}).json()
    names = [
        seat_named(table.match_id, n)
        for n in table.seats.order_by("index").values_list("entry__name", flat=True)
    ]
    ruling = {"kind": "award-result", "placements": {names[0]: 1, names[1]: 2}}
    ruled = club.client(club.referee).post(
        f"/api/disputes/{dispute['id']}/rule",
        {"ruling": ruling, "reason": "Beto's connection dropped"},
        format="json",
    )
    assert ruled.status_code == 200, ruled.json()
    place = ana.get(f"/api/matches/{table.match_id}/tournament").json()
    assert place["ruling"] == {
        "dispute": dispute["id"],
        "kind": "award-result",
        "reason": "Beto's connection dropped",
    }


def test_a_scorekeeper_is_a_party_only_to_physical_tables(club: Club, make_user: Any) -> None:
    keeper = make_user("sara")
    add_member(club.tournament.club_id, keeper, Membership.SCOREKEEPER, club.organiser)
    table = club.table_of("ana")
    dispute = (
        club.client(club.players["ana"])
        .post(f"/api/matches/{table.match_id}/disputes", {"reason": "other", "round": 1})
        .json()
    )
    sara = club.client(keeper)
    before = stored()
    refused(sara.get(f"/api/disputes/{dispute['id']}"), 403, "forbidden")
    refused(
        sara.post(f"/api/matches/{table.match_id}/disputes", {"reason": "other"}), 403, "dispute-not-at-table"
    )
    assert stored() == before
    Table.objects.filter(pk=table.pk).update(physical=True)  # the same table, kept on paper
    assert sara.get(f"/api/disputes/{dispute['id']}").status_code == 200
