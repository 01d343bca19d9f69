"""Open tables through the API: open, sit, leave before the start, start (never alone),
private links, bots (never rated), rated casual tables in the ratings (a leaver placed
last), the rematch; and two players taking the same seat at once (one sits, the other
gets 409 `seat-taken`)."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest
from rest_framework.test import APIClient

from cacho.engine.games import game_for
from cacho.engine.viewer import Viewer
from cacho.models import Event, Match, Player, Seat
from cacho.services import matches as match_service
from cacho.services.bot_play import play_bot_turn, play_bots
from cacho.tasks import bot_turn
from tests.tournaments.helpers import seat_named
from tournaments.models import PlayerRating, RatedMatch
from tournaments.open_tables import ratings as open_ratings
from tournaments.open_tables.models import OpenSeat, OpenTable

# Real commits: the after-commit work (bots scheduled, the match-finished listener) runs.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]


def pid(user: Any) -> str:
    """The player id an open table seats the account by."""
    return Player.objects.get(user=user).public_id


def client_for(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def open_table(host: Any, **body: Any) -> dict[str, Any]:
    response = client_for(host).post("/api/open-tables", {"ruleset": "dudo", **body}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def sit(user: Any, table: dict[str, Any], **body: Any) -> Any:
    return client_for(user).post(f"/api/open-tables/{table['id']}/seats", body, format="json")


def test_open_sit_and_start_never_alone(make_user: Any) -> None:
    ana, beto = make_user("ana"), make_user("beto")
    table = open_table(ana, size=3, turn_seconds=20)
    assert [s["player"] for s in table["seats"]] == ["ana", None, None]
    assert table["you"] == {"seated": True, "host": True, "invited": False, "link": table["you"]["link"]}

    alone = client_for(ana).post(f"/api/open-tables/{table['id']}/start")
    assert alone.status_code == 409 and alone.json()["code"] == "too-few-players"
    assert not Match.objects.exists()

    listed = APIClient().get("/api/open-tables").json()
    assert [t["id"] for t in listed] == [table["id"]] and listed[0]["free"] == 2
    assert sit(beto, table).status_code == 200
    again = sit(beto, table)
    assert again.status_code == 409 and again.json()["code"] == "already-seated"
    assert client_for(beto).post(f"/api/open-tables/{table['id']}/start").json()["code"] == "not-host"

    started = client_for(ana).post(f"/api/open-tables/{table['id']}/start").json()
    assert started["status"] == "playing" and started["match"]
    seats = Seat.objects.filter(match_id=started["match"]).order_by("index")
    # seated by their player ids: the match's events name no account
    assert [(s.name, s.user.username, s.bot) for s in seats] == [
        (pid(ana), "ana", ""),
        (pid(beto), "beto", ""),
    ]
    assert Match.objects.get().turn_seconds == 20
    assert APIClient().get("/api/open-tables").json() == []  # started: off the lobby


def test_bad_input_stores_nothing(make_user: Any) -> None:
    ana = make_user("ana")
    cases = [
        ({"ruleset": "chess"}, "ruleset-invalid"),
        ({"ruleset": "dudo", "size": 7}, "size-invalid"),
        ({"ruleset": "dudo", "size": 1}, "size-invalid"),
        ({"ruleset": "dudo", "turn_seconds": 3}, "turn-seconds-invalid"),
        ({"ruleset": "dudo", "options": {"nope": 1}}, "options-invalid"),
        ({"ruleset": "dudo", "rated": "yes"}, "rated-invalid"),
        ({"ruleset": "dudo", "colour": "red"}, "unknown-field"),
    ]
    for body, code in cases:
        response = client_for(ana).post("/api/open-tables", body, format="json")
        assert (response.status_code, response.json()["code"]) == (400, code), body
    assert not OpenTable.objects.exists()
    assert APIClient().post("/api/open-tables", {"ruleset": "dudo"}, format="json").status_code in (401, 403)


def test_leaving_before_the_start(make_user: Any) -> None:
    ana, beto, caro = make_user("ana"), make_user("beto"), make_user("caro")
    table = open_table(ana, size=3)
    assert sit(beto, table, index=2).status_code == 200
    left = client_for(beto).post(f"/api/open-tables/{table['id']}/leave").json()
    assert [s["player"] for s in left["seats"]] == ["ana", None, None] and left["status"] == "open"
    assert client_for(beto).post(f"/api/open-tables/{table['id']}/leave").json()["code"] == "not-seated"
    assert sit(caro, table, index=2).status_code == 200  # the seat is free again

    closed = client_for(ana).post(f"/api/open-tables/{table['id']}/leave").json()
    assert closed["status"] == "closed"  # the host leaving closes the table
    assert sit(beto, table).json()["code"] == "table-not-open"

    other = open_table(beto, size=2)
    sit(caro, other)  # full: it starts by itself
    assert OpenTable.objects.get(pk=other["id"]).status == OpenTable.PLAYING
    late = client_for(caro).post(f"/api/open-tables/{other['id']}/leave")
    assert late.status_code == 409 and late.json()["code"] == "table-not-open"


def test_a_private_table_seats_only_with_its_link(make_user: Any) -> None:
    ana, beto, caro = make_user("ana"), make_user("beto"), make_user("caro")
    table = open_table(ana, size=3, private=True)
    token = table["you"]["link"].split("join=")[1]
    assert APIClient().get("/api/open-tables").json() == []  # not in the lobby
    assert client_for(beto).get(f"/api/open-tables/{table['id']}").status_code == 404
    refused = sit(beto, table)
    assert refused.status_code == 404  # nothing says the table exists without its link
    wrong = sit(beto, table, token="x" * 32)
    assert wrong.status_code == 404
    assert client_for(beto).get(f"/api/open-tables/{table['id']}?token={token}").status_code == 200
    seated = sit(beto, table, token=token).json()
    assert seated["seats"][1]["player"] == "beto" and seated["you"]["link"]
    assert [t["id"] for t in client_for(beto).get("/api/open-tables").json()] == [table["id"]]
    assert client_for(caro).get("/api/open-tables").json() == []
    assert client_for(caro).get(f"/api/open-tables/{table['id']}?token={token}").json()["you"]["link"] is None


def test_bots_fill_seats_play_server_side_and_are_never_rated(make_user: Any, settings: Any) -> None:
    settings.CACHO_BOTS = "off"  # the test plays the bots' turns itself, through the same function
    ana, beto = make_user("ana"), make_user("beto")
    rated = open_table(ana, size=3, rated=True)
    refused = client_for(ana).post(
        f"/api/open-tables/{rated['id']}/bots", {"strength": "random"}, format="json"
    )
    assert refused.status_code == 409 and refused.json()["code"] == "rated-no-bots"
    table = open_table(beto, size=3)
    assert (
        client_for(ana)
        .post(f"/api/open-tables/{table['id']}/bots", {"strength": "random"}, format="json")
        .status_code
        == 403
    )
    bad = client_for(beto).post(f"/api/open-tables/{table['id']}/bots", {"strength": "genius"}, format="json")
    assert bad.json()["code"] == "bot-strength-invalid"
    filled = (
        client_for(beto)
        .post(f"/api/open-tables/{table['id']}/bots", {"strength": "reasoning", "count": 2}, format="json")
        .json()
    )
    assert filled["status"] == "playing"  # full: started by itself
    assert [s["bot"] for s in filled["seats"]] == [None, "reasoning", "reasoning"]
    match_id = filled["match"]
    seats = client_for(beto).get(f"/api/matches/{match_id}").json()["seats"]
    assert [(s["name"], s["label"], s["bot"]) for s in seats] == [
        (pid(beto), "beto", None),
        ("Bot 1", "Bot 1", "reasoning"),
        ("Bot 2", "Bot 2", "reasoning"),
    ]

    game = game_for("dudo")
    rng = random.Random(3)
    for step in range(3000):
        play_bots(match_id)
        match = Match.objects.get(pk=match_id)
        if match.status == Match.STATUS_FINISHED:
            break
        state = match_service.load_state(match, game)
        assert game.to_act(state) == pid(beto)
        payload = game.bot_payload(state, pid(beto), rng)
        assert payload is not None
        match_service.submit(match_id, pid(beto), payload, f"beto-{step}")
    assert Match.objects.get(pk=match_id).status == Match.STATUS_FINISHED
    assert OpenTable.objects.get(pk=table["id"]).status == OpenTable.FINISHED
    OpenTable.objects.filter(pk=table["id"]).update(rated=True)  # even so: a bot sat at it
    assert open_ratings.read_input(match_id) is None
    assert not RatedMatch.objects.exists() and not PlayerRating.objects.exists()


def _play_until_someone_is_out(match_id: Any) -> str:
    game = game_for("dudo")
    rng = random.Random(11)
    for step in range(3000):
        match = Match.objects.get(pk=match_id)
        state = match_service.load_state(match, game)
        view = game.view(state, Viewer.spectator())
        out = [p["name"] for p in view["players"] if p["out"]]
        if out:
            return out[0]
        seat = game.to_act(state)
        match_service.submit(match_id, seat, game.bot_payload(state, seat, rng), f"{seat}-{step}")
    raise AssertionError("nobody went out")


def test_a_rated_casual_table_feeds_the_ratings_with_its_leaver_last(make_user: Any) -> None:
    ana, beto, caro = make_user("ana"), make_user("beto"), make_user("caro")
    table = open_table(ana, size=3, rated=True)
    sit(beto, table)
    started = sit(caro, table).json()
    match_id = started["match"]
    names = {pid(u): u.username for u in (ana, beto, caro)}
    out = names[_play_until_someone_is_out(match_id)]
    still = [name for name in ("ana", "beto", "caro") if name != out]
    leaver, winner = still[0], still[1]
    match_service.submit(
        match_id, pid({"ana": ana, "beto": beto, "caro": caro}[leaver]), {"type": "abandon"}, "leaving"
    )
    assert Match.objects.get(pk=match_id).status == Match.STATUS_FINISHED
    users = {u.username: u.pk for u in (ana, beto, caro)}
    rated = RatedMatch.objects.get(match_id=match_id)
    assert rated.family == "dudo" and rated.tournament_id is None
    # the engine places the leaver above the player out before; the ratings place it last
    assert sorted(rated.placements) == sorted([[users[winner], 1], [users[out], 2], [users[leaver], 3]])
    assert set(PlayerRating.objects.filter(family="dudo").values_list("user__username", flat=True)) == {
        "ana",
        "beto",
        "caro",
    }
    winner_rating = PlayerRating.objects.get(user_id=users[winner])
    leaver_rating = PlayerRating.objects.get(user_id=users[leaver])
    assert winner_rating.mu > leaver_rating.mu


def test_the_rematch_opens_the_same_table_with_the_players_invited(make_user: Any, settings: Any) -> None:
    settings.CACHO_BOTS = "off"
    ana, beto, caro = make_user("ana"), make_user("beto"), make_user("caro")
    table = open_table(ana, size=3, private=True)
    token = table["you"]["link"].split("join=")[1]
    sit(beto, table, token=token)
    match_id = (
        client_for(ana)
        .post(f"/api/open-tables/{table['id']}/bots", {"strength": "random"}, format="json")
        .json()["match"]
    )
    early = client_for(beto).post(f"/api/open-tables/{table['id']}/rematch")
    assert early.status_code == 409 and early.json()["code"] == "table-not-finished"
    match_service.submit(match_id, pid(ana), {"type": "abandon"}, "a-out")
    match_service.submit(match_id, pid(beto), {"type": "abandon"}, "b-out")
    assert Match.objects.get(pk=match_id).status == Match.STATUS_FINISHED
    assert client_for(caro).post(f"/api/open-tables/{table['id']}/rematch").status_code == 404

    response = client_for(beto).post(f"/api/open-tables/{table['id']}/rematch")
    assert response.status_code == 201
    again = response.json()
    assert again["rematch_of"] == table["id"] and again["host"] == "beto" and again["invited"] == ["ana"]
    assert [(s["player"], s["bot"]) for s in again["seats"]] == [
        (None, None),
        ("beto", None),
        (None, "random"),
    ]
    assert client_for(ana).post(f"/api/open-tables/{table['id']}/rematch").json()["id"] == again["id"]
    assert (
        client_for(ana).get(f"/api/matches/{match_id}/open-table").json()["table"]["rematch"] == again["id"]
    )
    assert [t["id"] for t in client_for(ana).get("/api/open-tables").json()] == [again["id"]]
    seated = sit(ana, again).json()  # invited: no link needed
    assert seated["status"] == "playing" and seated["match"] != match_id


@pytest.mark.usefixtures("committed_db")
@pytest.mark.django_db(transaction=True)
def test_two_players_take_the_same_seat_at_once(make_user: Any) -> None:
    ana, beto, caro = make_user("ana"), make_user("beto"), make_user("caro")
    table = open_table(ana, size=3)
    barrier = threading.Barrier(2)
    answers: list[tuple[int, str | None]] = []

    def take(user: Any) -> None:
        from django.db import connection

        try:
            barrier.wait(timeout=5)
            response = sit(user, table, index=1)
            answers.append((response.status_code, response.json().get("code")))
        finally:
            connection.close()

    threads = [threading.Thread(target=take, args=(user,)) for user in (beto, caro)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=20)
    assert sorted(answers, key=lambda a: a[0]) == [(200, None), (409, "seat-taken")]
    assert OpenSeat.objects.filter(table_id=table["id"]).count() == 2


def test_bots_move_by_themselves_in_the_serving_process(make_user: Any, settings: Any) -> None:
    """`make run`'s way: the serving process's bot thread plays every bot turn until a
    person is on turn."""
    settings.CACHO_BOTS = "in-process"
    settings.CACHO_BOT_THINK_MS = 0
    beto = make_user("beto")
    table = open_table(beto, size=3)
    match_id = (
        client_for(beto)
        .post(f"/api/open-tables/{table['id']}/bots", {"strength": "random"}, format="json")
        .json()["match"]
    )
    game = game_for("dudo")
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        match = Match.objects.get(pk=match_id)
        if game.to_act(match_service.load_state(match, game)) == pid(beto):
            break
        time.sleep(0.05)
    else:
        raise AssertionError("the bots did not play up to the person's turn")
    actors = {e.metadata.get("actor") for e in Event.objects.filter(stream_id=match_id)}
    assert actors <= {"server", "bot:random"}, actors


def test_a_bot_turn_is_played_once_whoever_runs_it(make_user: Any, settings: Any) -> None:
    settings.CACHO_BOTS = "off"
    beto = make_user("beto")
    table = open_table(beto, size=2)
    match_id = (
        client_for(beto)
        .post(f"/api/open-tables/{table['id']}/bots", {"strength": "reasoning"}, format="json")
        .json()["match"]
    )
    game = game_for("dudo")
    match = Match.objects.get(pk=match_id)
    seat = seat_named(match_id, "beto")  # an account sits by its player id
    if game.to_act(match_service.load_state(match, game)) == seat:
        payload = game.bot_payload(match_service.load_state(match, game), seat, random.Random(1))
        match_service.submit(match_id, seat, payload, "first")
        match.refresh_from_db()
    version = match.version
    assert bot_turn(str(match_id), version) is not None  # the Celery task (run in-process here)
    assert play_bot_turn(match_id, version) is None  # a repeat: the match moved on
    assert Event.objects.filter(stream_id=match_id, command_id=f"bot-{version}").count() == 1


def test_the_pages_speak_spanish_and_english(make_user: Any) -> None:
    from django.test import Client

    ana = make_user("ana")
    table = open_table(ana, size=2)
    page = Client()
    page.force_login(ana)
    for language, words in (("es", ["Mesas abiertas", "Nueva mesa"]), ("en", ["Open tables", "New table"])):
        page.cookies["django_language"] = language
        home = page.get("/").content.decode()
        assert all(word in home for word in words), language
        new = page.get("/tables/new/").content.decode()
        assert ("Quién puede sentarse" if language == "es" else "Who may sit") in new
        room = page.get(f"/tables/{table['id']}/").content.decode()
        assert ("Bot pensante" if language == "es" else "Thinking bot") in room  # the labels
    assert page.get("/tables/999999/").status_code == 404
