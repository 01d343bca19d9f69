"""The lobby's read-only API: GET /api/lobby, /api/me/match-history, /api/players/<username>
and its /matches (filters, pages, precise error codes), and the interest score."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from cacho.models import Match
from cacho.services import matches as match_service
from tests.cacho.conftest import settle_after_commit_work
from tests.tournaments.helpers import club_with_organiser, play_bidding_match, register_bots
from tournaments.models import Table, Tournament
from tournaments.reads import lobby
from tournaments.services import create_tournament, register, start_tournament

# Transactional: a finished match records its table (and the projections are written) after commit.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]


def client_for(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def casual(user: Any, *, finish: bool, rng: random.Random, names: tuple[str, ...] = ("ana", "beto")) -> Match:
    match = match_service.create_match("dudo", list(names), created_by=user)
    match_service.take_seat(match.pk, 0, user)
    if finish:
        play_bidding_match(match.pk, rng)
    match.refresh_from_db()
    return match


@pytest.fixture
def evening(make_user: Any) -> dict[str, Any]:
    """Ana's evening: a one-round tournament she finished, a finished casual match and a
    live one."""
    rng = random.Random(20)
    club, owner = club_with_organiser(make_user)
    ana = make_user("ana")
    tournament = create_tournament(
        club.pk,
        owner,
        name="Copa Lobby",
        ruleset="dudo",
        stages=[{"name": "swiss", "format": "swiss", "params": {"rounds": 1, "table_size": 3}}],
    )
    register(tournament.pk, ana, name="Ana", user=ana)
    register_bots(tournament, owner, 2)
    start_tournament(tournament.pk, owner)
    table = Table.objects.get(round__tournament=tournament)
    play_bidding_match(table.match_id, rng)
    tournament.refresh_from_db()
    finished = casual(ana, finish=True, rng=rng)
    live = casual(ana, finish=False, rng=rng, names=("ana", "carla", "dora"))
    settle_after_commit_work()
    return {"ana": ana, "tournament": tournament, "table": table, "finished": finished, "live": live}


def test_a_players_matches_with_filters(evening: dict[str, Any]) -> None:
    assert evening["tournament"].status == Tournament.FINISHED
    client = APIClient()
    every = client.get("/api/players/ana/matches").json()
    assert every["count"] == 3 and every["pages"] == 1 and every["page"] == 1
    first = every["results"][0]  # newest first: the live casual match
    assert first["match"] == str(evening["live"].pk) and first["status"] == "live"
    assert first["placement"] is None and first["tournament"] is None
    assert [o["name"] for o in first["opponents"]] == ["carla", "dora"] and first["players"] == 3
    in_tournament = client.get(f"/api/players/ana/matches?tournament={evening['tournament'].pk}").json()
    assert in_tournament["count"] == 1
    row = in_tournament["results"][0]
    assert row["tournament"]["name"] == "Copa Lobby" and row["tournament"]["round"] == 1
    assert 1 <= row["placement"] <= 3 and row["finished_at"]
    assert client.get("/api/players/ana/matches?tournament=none").json()["count"] == 2
    assert client.get("/api/players/ana/matches?status=live").json()["count"] == 1
    finished = client.get("/api/players/ana/matches?status=finished").json()
    assert finished["count"] == 2 and all(r["placement"] for r in finished["results"])
    won = client.get("/api/players/ana/matches?result=won").json()
    lost = client.get("/api/players/ana/matches?result=lost").json()
    assert won["count"] + lost["count"] == 2  # the live match has no result
    assert all(r["placement"] == 1 for r in won["results"])
    assert all(r["placement"] > 1 for r in lost["results"])
    # mine, through the authenticated endpoint: the same list
    mine = client_for(evening["ana"]).get("/api/me/match-history?status=finished").json()
    assert [r["match"] for r in mine["results"]] == [r["match"] for r in finished["results"]]
    beyond = client.get("/api/players/ana/matches?page=2").json()
    assert beyond["results"] == [] and beyond["pages"] == 1


@pytest.mark.parametrize(
    ("query", "code", "field"),
    [
        ("result=maybe", "invalid-result", "result"),
        ("status=paused", "invalid-status", "status"),
        ("tournament=copa", "invalid-tournament", "tournament"),
        ("tournament=-1", "invalid-tournament", "tournament"),
        ("page=0", "invalid-page", "page"),
        ("page=two", "invalid-page", "page"),
        ("page=", "invalid-page", "page"),
    ],
)
def test_bad_filters_are_400_with_their_code(make_user: Any, query: str, code: str, field: str) -> None:
    ana = make_user("ana")
    for client, path in (
        (APIClient(), "/api/players/ana/matches"),
        (client_for(ana), "/api/me/match-history"),
    ):
        response = client.get(f"{path}?{query}")
        assert response.status_code == 400, response.content
        body = response.json()
        assert body["code"] == code and body["field"] == field and body["message"]


def test_unknown_players_and_anonymous_history(make_user: Any) -> None:
    for path in ("/api/players/nobody", "/api/players/nobody/matches"):
        response = APIClient().get(path)
        assert response.status_code == 404 and response.json()["code"] == "player-unknown"
    anonymous = APIClient().get("/api/me/match-history")
    assert anonymous.status_code in (401, 403) and anonymous.json()["code"] == "not-authenticated"
    empty = client_for(make_user("nadie")).get("/api/me/match-history").json()
    assert empty == {"count": 0, "page": 1, "pages": 1, "page_size": lobby.PAGE_SIZE, "results": []}


def test_a_players_tournaments_with_the_final_place(evening: dict[str, Any]) -> None:
    body = APIClient().get("/api/players/ana").json()
    assert body["username"] == "ana"
    [entered] = body["tournaments"]
    assert entered["name"] == "Copa Lobby" and entered["status"] == "finished" and entered["entries"] == 3
    assert 1 <= entered["place"] <= 3 and entered["entry"] == "Ana"


def test_the_lobby(evening: dict[str, Any], make_user: Any) -> None:
    club, owner = club_with_organiser(make_user, "coming")
    coming = create_tournament(
        club.pk,
        owner,
        name="Copa que viene",
        ruleset="dudo",
        stages=[{"name": "swiss", "format": "swiss", "params": {"rounds": 1, "table_size": 3}}],
    )
    anonymous = APIClient().get("/api/lobby").json()
    assert anonymous["next"] is None
    assert anonymous["tv"]["match"] == str(evening["live"].pk)  # the only live table
    tv = anonymous["tv"]
    assert [p["name"] for p in tv["players"]] == ["ana", "carla", "dora"]
    assert tv["players"][0]["username"] == "ana" and tv["players"][1]["username"] is None
    assert set(tv["interest"]) == {"score", "closeness", "pressure"}
    assert set(tv["players"][0]) == {"name", "label", "dice", "out", "username"}  # dice counts, never faces
    assert [t["name"] for t in anonymous["tournaments"]["coming"]] == ["Copa que viene"]
    assert anonymous["tournaments"]["running"] == []
    mine = client_for(evening["ana"]).get("/api/lobby").json()["next"]
    assert mine["kind"] == "match" and mine["match"] == str(evening["live"].pk)
    assert [o["name"] for o in mine["opponents"]] == ["carla", "dora"]
    # without a live match: the tournament where the player waits for a table
    eva = make_user("eva")
    register(coming.pk, eva, name="Eva", user=eva)
    waiting = client_for(eva).get("/api/lobby").json()["next"]
    assert waiting == {
        "kind": "waiting",
        "tournament": {"id": coming.pk, "name": "Copa que viene", "status": "registration"},
    }
    assert client_for(make_user("fede")).get("/api/lobby").json()["next"] is None


def test_the_interest_score_prefers_close_standings_and_big_bids() -> None:
    def dudo(dice: list[int], bid: int | None) -> dict[str, Any]:
        return {
            "game": "dudo",
            "players": [{"name": str(i), "dice": n, "out": n == 0} for i, n in enumerate(dice)],
            "total_dice": sum(dice),
            "round": {"bid": None if bid is None else {"quantity": bid, "face": 5}},
        }

    even = lobby.interest(dudo([3, 3], 5))
    assert even == {"score": 1.833, "closeness": 1.0, "pressure": 0.833}
    lopsided = lobby.interest(dudo([5, 1], 2))
    assert lopsided["closeness"] == 0.2 and lopsided["score"] < even["score"]
    assert lobby.interest(dudo([4, 4, 0], None))["pressure"] == 0.0
    assert lobby.interest({**dudo([3, 3], 5), "paused": {"reason": "x"}})["score"] == 0.0
    card = {"ones": 3, "twos": None}
    alalay = {"game": "alalay", "entries": [{"total": 40, "card": card}, {"total": 30, "card": card}]}
    assert lobby.interest(alalay) == {"score": 1.25, "closeness": 0.75, "pressure": 0.5}


def test_the_schema_lists_the_lobby_endpoints() -> None:
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for path in (
        "/api/lobby",
        "/api/me/match-history",
        "/api/players/{username}",
        "/api/players/{username}/matches",
    ):
        assert path in schema["paths"], path
    parameters = {p["name"] for p in schema["paths"]["/api/me/match-history"]["get"]["parameters"]}
    assert {"result", "status", "tournament", "page"} <= parameters


def test_the_tv_is_the_table_with_the_biggest_bid(make_user: Any) -> None:
    from tests.cacho.helpers import command_id, state_of

    ana = make_user("ana")
    quiet = casual(ana, finish=False, rng=random.Random(1))
    tense = match_service.create_match("dudo", ["carla", "dora"])
    state = state_of(tense.pk)
    bidder = state.config.players[state.round.to_act]
    match_service.submit(tense.pk, bidder, {"type": "bid", "quantity": 6, "face": 3}, command_id())
    settle_after_commit_work()
    body = APIClient().get("/api/lobby").json()
    assert [t["match"] for t in body["tables"]] == [str(tense.pk), str(quiet.pk)]
    tv = body["tv"]
    assert tv["bid"] == {"quantity": 6, "face": 3, "by": bidder}
    assert tv["interest"] == {"score": 1.6, "closeness": 1.0, "pressure": 0.6}
    assert body["tables"][1]["interest"]["pressure"] == 0.0


def test_the_lobby_lists_every_live_match_of_the_player_their_turn_first(make_user: Any) -> None:
    ana = make_user("ana")

    def sit(names: list[str], first: int) -> Match:
        match = match_service.create_match("dudo", names, created_by=ana, first_seat=first)
        match_service.take_seat(match.pk, names.index("ana"), ana)
        return match

    on_turn = sit(["ana", "beto"], first=0)  # the oldest, but Ana plays now
    waiting = sit(["carla", "ana"], first=0)
    newest = sit(["dora", "ana", "eva"], first=0)
    casual(ana, finish=True, rng=random.Random(3))  # over: not listed
    settle_after_commit_work()

    body = client_for(ana).get("/api/lobby").json()
    yours = body["yours"]
    assert [m["match"] for m in yours] == [str(on_turn.pk), str(newest.pk), str(waiting.pk)]
    assert [m["your_turn"] for m in yours] == [True, False, False]
    assert [o["name"] for o in yours[1]["opponents"]] == ["dora", "eva"]
    assert all(m["kind"] == "match" and m["tournament"] is None for m in yours)
    assert body["next"] == yours[0]
    assert APIClient().get("/api/lobby").json()["yours"] == []
    assert client_for(make_user("fede")).get("/api/lobby").json()["yours"] == []
