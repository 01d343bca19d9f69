"""Rulings through the API: a referee pauses a table, previews a ruling and commits it; the
match gains a correcting event (the stream stays verifiable), the table's result and the
standings are derived again, and the dispute's trail holds every step. A ruling by anyone
but a referee, or one the engine refuses, stores nothing."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from cacho.engine.errors import RuleError
from cacho.models import Event, Match
from cacho.services import matches as match_service
from cacho.services.verify import verify_match
from tests.cacho.helpers import legal_bidding_move, state_of
from tests.tournaments.disputes import Club
from tests.tournaments.helpers import club_with_organiser, play_bidding_match, register_bots
from tournaments.clubs.members import grant_role as add_member
from tournaments.models import Dispute, Membership, Round, Table, Tournament, TournamentEvent
from tournaments.services import create_tournament, standings, start_tournament
from tournaments.services.bots import play_bots_until_stuck

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]

_commands = itertools.count(1)


def stored() -> tuple[int, int, int]:
    return (
        Event.objects.count(),
        TournamentEvent.objects.count(),
        Dispute.objects.filter(status="open").count(),
    )


def play_until_round(match_id: Any, number: int, rng: random.Random) -> None:
    """Random legal moves until round `number` of the bidding match is being bid."""
    for _ in range(2000):
        state = state_of(match_id)
        if state.round is not None and state.round.number == number:
            return
        player, command = legal_bidding_move(state, rng)
        match_service.submit(match_id, player, command, f"rulings-{next(_commands)}")
    raise AssertionError(f"round {number} never came")


def file(club: Club, player: str, body: dict[str, Any]) -> dict[str, Any]:
    table = club.table_of(player)
    answer = club.client(club.players[player]).post(f"/api/matches/{table.match_id}/disputes", body)
    assert answer.status_code == 201, answer.json()
    return answer.json()


def test_void_round_three_of_a_live_match_and_replay_it(club: Club) -> None:
    rng = random.Random(3)
    table = club.table_of("ana")
    play_until_round(table.match_id, 3, rng)
    dispute = file(club, "ana", {"reason": "misclick", "round": 3, "text": "I bid 5×3, not 5×6"})
    referee = club.client(club.referee)

    paused = referee.post(f"/api/disputes/{dispute['id']}/pause", {"reason": "Reviewing round 3"})
    assert paused.status_code == 200 and paused.json()["paused"] is True
    state = club.client(club.players["ana"]).get(f"/api/matches/{table.match_id}").json()["state"]
    assert state["paused"] == {"reason": "Reviewing round 3"}
    for player in state_of(table.match_id).config.players:  # nobody is on turn while paused
        with pytest.raises(RuleError) as refused:
            match_service.submit(table.match_id, player, {"type": "dudo"}, f"rulings-{next(_commands)}")
        assert refused.value.code == "match-paused"

    before = stored()
    preview = referee.post(
        f"/api/disputes/{dispute['id']}/preview",
        {"ruling": {"kind": "void-round", "round": 3}},
        format="json",
    )
    assert preview.status_code == 200, preview.json()
    assert stored() == before  # a preview stores nothing

    ruled = referee.post(
        f"/api/disputes/{dispute['id']}/rule",
        {"ruling": {"kind": "void-round", "round": 3}, "reason": "A misclick the log confirms"},
        format="json",
    )
    assert ruled.status_code == 200, ruled.json()
    assert ruled.json()["status"] == "ruled" and ruled.json()["ruling"]["kind"] == "void-round"
    assert [s["type"] for s in ruled.json()["trail"]] == ["filed", "paused", "resumed", "ruled"]
    again = state_of(table.match_id)
    assert again.round is not None and again.round.number == 4  # round 3 played again, as a new round
    assert verify_match(Match.objects.get(pk=table.match_id))["valid"] is True

    # The players replay it; the table's result reaches the standings as any other.
    play_bidding_match(table.match_id, rng)
    table.refresh_from_db()
    assert table.status == Table.FINISHED and table.result


def test_award_result_on_the_last_table_corrects_the_final_ranking(club: Club) -> None:
    rng = random.Random(5)
    for number in (1, 2):
        for table in Table.objects.filter(round__tournament=club.tournament, round__number=number):
            play_bidding_match(table.match_id, rng)
    club.tournament.refresh_from_db()
    assert club.tournament.status == Tournament.FINISHED
    last = club.table_of("ana", 2)
    loser = next(line["entry"] for line in last.result if line["placement"] == 2)
    winner = next(line["entry"] for line in last.result if line["placement"] == 1)
    loser_name = last.seats.get(entry_id=loser).entry.name
    seat_of = dict(Match.objects.get(pk=last.match_id).seats.values_list("index", "name"))
    by_entry = {s.entry_id: seat_of[s.match_seat] for s in last.seats.all()}
    party = club.players[loser_name]
    answer = club.client(party).post(f"/api/matches/{last.match_id}/disputes", {"reason": "wrong-result"})
    assert answer.status_code == 201, answer.json()
    dispute = answer.json()
    ruling = {"kind": "award-result", "placements": {by_entry[loser]: 1, by_entry[winner]: 2}}

    preview = (
        club.client(club.referee)
        .post(f"/api/disputes/{dispute['id']}/preview", {"ruling": ruling}, format="json")
        .json()
    )
    assert loser in preview["changed"] and winner in preview["changed"]
    # the tiebreaks beside the points, and the final ranking now and after, its moves named
    assert preview["criteria"][0] == "points" and len(preview["criteria"]) > 1
    for row in preview["current"] + preview["after"]:
        assert set(preview["criteria"][1:]) <= set(row["values"]) and "tiebreak_text" in row
    places_now = {row["entry"]: row["place"] for row in preview["ranking_current"]}
    places_after = {row["entry"]: row["place"] for row in preview["ranking_after"]}
    assert places_now == {p.entry_id: p.place for p in standings.final_ranking(club.tournament)}
    assert set(places_now) == set(places_after) == set(club.tournament.entries.values_list("pk", flat=True))
    assert preview["ranking_changed"] == sorted(e for e in places_now if places_now[e] != places_after[e])
    assert loser in preview["ranking_changed"] and places_after[loser] < places_now[loser]
    head_before = Tournament.objects.get(pk=club.tournament.pk).head_hash

    ruled = club.client(club.referee).post(
        f"/api/disputes/{dispute['id']}/rule",
        {"ruling": ruling, "reason": "the log shows the calza"},
        format="json",
    )
    assert ruled.status_code == 200, ruled.json()
    last.refresh_from_db()
    assert {line["entry"]: line["placement"] for line in last.result}[loser] == 1
    after = {row["entry"]: row["rank"] for row in standings.standing_rows(club.tournament, 1)}
    assert after == {row["entry"]: row["rank"] for row in preview["after"]}  # what was previewed
    club.tournament.refresh_from_db()
    ranked = {p.entry_id: p.place for p in standings.final_ranking(club.tournament)}
    assert ranked == places_after
    types = list(TournamentEvent.objects.filter(tournament=club.tournament).values_list("type", flat=True))
    assert types[-3:] == ["table-corrected", "ranking-corrected", "dispute-ruled"]
    assert Tournament.objects.get(pk=club.tournament.pk).head_hash != head_before
    assert verify_match(Match.objects.get(pk=last.match_id))["valid"] is True


@pytest.mark.parametrize(
    ("who", "ruling", "status", "code"),
    [
        ("ana", {"kind": "uphold"}, 403, "ruling-not-referee"),
        ("referee", {"kind": "rewrite-history"}, 400, "ruling-kind-unknown"),
        ("referee", {"kind": "void-round", "round": 99}, 400, None),  # the engine's own code
    ],
)
def test_a_bad_ruling_gets_its_code_and_stores_nothing(
    club: Club, who: str, ruling: dict[str, Any], status: int, code: str | None
) -> None:
    dispute = file(club, "ana", {"reason": "other"})
    user = club.referee if who == "referee" else club.players[who]
    before = stored()
    answer = club.client(user).post(
        f"/api/disputes/{dispute['id']}/rule", {"ruling": ruling, "reason": "because"}, format="json"
    )
    assert answer.status_code == status, answer.json()
    assert answer.json()["code"] == code if code else answer.json()["code"].startswith("ruling-")
    assert stored() == before


def test_a_ruled_dispute_is_closed(club: Club) -> None:
    dispute = file(club, "ana", {"reason": "other"})
    referee = club.client(club.referee)
    first = referee.post(
        f"/api/disputes/{dispute['id']}/rule", {"ruling": {"kind": "uphold"}, "reason": "fine"}, format="json"
    )
    assert first.status_code == 200 and first.json()["ruling"]["kind"] == "uphold"
    before = stored()
    second = referee.post(
        f"/api/disputes/{dispute['id']}/rule", {"ruling": {"kind": "uphold"}, "reason": "fine"}, format="json"
    )
    assert (second.status_code, second.json()["code"]) == (409, "dispute-closed")
    no_reason = referee.post(
        f"/api/disputes/{dispute['id']}/rule", {"ruling": {"kind": "uphold"}}, format="json"
    )
    assert no_reason.json()["code"] in ("dispute-closed", "ruling-reason-missing")
    assert stored() == before


def test_alalay_correct_turn_on_a_scorekeepers_finished_table(make_user: Any) -> None:
    club, organiser = club_with_organiser(make_user, "alalay")
    referee, scorekeeper = make_user("rita"), make_user("sara")
    add_member(club.pk, referee, Membership.REFEREE, organiser)
    add_member(club.pk, scorekeeper, Membership.SCOREKEEPER, organiser)
    tournament = create_tournament(
        club.pk,
        organiser,
        name="Cochabamba",
        ruleset="alalay",
        stages=[{"name": "final", "format": "final_table", "params": {}}],
    )
    register_bots(tournament, organiser, 3)
    start_tournament(tournament.pk, organiser)
    play_bots_until_stuck(tournament, random.Random(9))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.FINISHED
    table = Table.objects.get(round__tournament=tournament)
    # The scorekeeper is a party only to a physical table: this one's sheet was theirs (the
    # bots stand in for the players whose turns were entered).
    Table.objects.filter(pk=table.pk).update(physical=True)
    record = club_client(scorekeeper).get(f"/api/matches/{table.match_id}/record").json()
    winner_line = min(table.result, key=lambda line: line["placement"])
    winner_seat = table.seats.get(entry_id=winner_line["entry"]).match_seat
    winner_name = Match.objects.get(pk=table.match_id).seats.get(index=winner_seat).name
    # The winner's last scored box, struck out: the scorekeeper had entered it wrongly. The
    # dice are the server's own: a winner who scored no box (a match won at a throw) leaves
    # the last box anyone scored.
    scored = [(n, t) for n, t in enumerate(record["turns"], start=1) if "score" in t]
    turn_number, turn = ([(n, t) for n, t in scored if t["by"] == winner_name] or scored)[-1]

    filed = club_client(scorekeeper).post(
        f"/api/matches/{table.match_id}/disputes", {"reason": "scorekeeping", "turn": turn_number}
    )
    assert filed.status_code == 201, filed.json()
    ruling = {"kind": "correct-turn", "turn": turn_number, "box": turn["score"], "scratch": True}
    preview = club_client(referee).post(
        f"/api/disputes/{filed.json()['id']}/preview", {"ruling": ruling}, format="json"
    )
    assert preview.status_code == 200, preview.json()
    ruled = club_client(referee).post(
        f"/api/disputes/{filed.json()['id']}/rule", {"ruling": ruling, "reason": "misentered"}, format="json"
    )
    assert ruled.status_code == 200, ruled.json()
    table.refresh_from_db()
    rows = {row["entry"]: row["rank"] for row in standings.standing_rows(tournament, 1)}
    assert rows == {row["entry"]: row["rank"] for row in preview.json()["after"]}
    assert verify_match(Match.objects.get(pk=table.match_id))["valid"] is True
    assert Round.objects.filter(tournament=tournament).count() == 1


def club_client(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client
