"""The match API: creation, seats, commands, reading per viewer, records, verification,
and the error codes (400/403/404/409, never a 500 on garbage)."""

from __future__ import annotations

import json
import threading
import uuid
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from cacho.models import Event, Match

pytestmark = [pytest.mark.usefixtures("committed_db"), pytest.mark.sqlite_too]

User = get_user_model()


def the_user_ref_referees(match_id: object, user: object) -> bool:
    """The referee check these tests configure (`CACHO_REFEREE_CHECK`): the tournaments
    app answers it for its tables (tests/tournaments/test_disputes.py); a casual match's
    tests name their referee directly."""
    return getattr(user, "username", "") == "ref"


@pytest.fixture
def referee_ref(settings: Any) -> None:
    settings.CACHO_REFEREE_CHECK = "tests.cacho.test_api.the_user_ref_referees"
    settings.CACHO_IMPORT_CHECK = "tests.cacho.test_api.the_user_keeper_imports"


def the_user_keeper_imports(user: Any) -> bool:
    return bool(user.username == "keeper")


def client_for(name: str | None, staff: bool = False) -> APIClient:
    client = APIClient()
    if name is not None:
        user, _ = User.objects.get_or_create(username=name, defaults={"is_staff": staff})
        client.force_authenticate(user)
    return client


def new_match(
    ruleset: str = "dudo", players: tuple[str, ...] = ("ana", "beto")
) -> tuple[str, dict[str, APIClient]]:
    """A match whose seats are held by users named like the seats."""
    clients = {name: client_for(name) for name in players}
    response = clients[players[0]].post(
        "/api/matches", {"ruleset": ruleset, "players": list(players), "seat": 0}, format="json"
    )
    assert response.status_code == 201, response.content
    match_id = response.json()["id"]
    for index, name in enumerate(players[1:], start=1):
        taken = clients[name].post(f"/api/matches/{match_id}/seats/{index}")
        assert taken.status_code == 200, taken.content
    return match_id, clients


def on_turn(match_id: str, client: APIClient) -> tuple[str, int]:
    body = client.get(f"/api/matches/{match_id}").json()
    return body["state"]["round"]["to_act"], body["version"]


def test_create_needs_a_login_and_valid_fields() -> None:
    anonymous = client_for(None)
    response = anonymous.post("/api/matches", {"ruleset": "dudo", "players": ["a", "b"]}, format="json")
    assert response.status_code in (401, 403) and response.json()["code"] == "not-authenticated"
    ana = client_for("ana")
    for body, code in [
        ({"ruleset": "dudo", "players": ["a"]}, "invalid-field"),
        ({"ruleset": "dudo", "players": ["a", "b"], "colour": "red"}, "unknown-field"),
        ({"ruleset": "poker", "players": ["a", "b"]}, "unknown-ruleset"),
        ({"ruleset": "dudo", "players": ["a", "b"], "options": {"nope": 1}}, "unknown-option"),
        ({"ruleset": "dudo", "players": ["a", "a"]}, "setup-bad-names"),
        ({"ruleset": "dudo", "players": ["a", "b"], "turn_seconds": "30"}, "invalid-field"),
    ]:
        response = ana.post("/api/matches", body, format="json")
        assert response.status_code == 400, (body, response.content)
        assert response.json()["code"] == code, body
    assert not Match.objects.exists()


def test_seats_commands_and_their_error_codes(referee_ref: None) -> None:
    match_id, clients = new_match()
    ana, beto = clients["ana"], clients["beto"]
    player, version = on_turn(match_id, ana)
    other = "beto" if player == "ana" else "ana"
    url = f"/api/matches/{match_id}/commands"

    assert client_for("caro").post(f"/api/matches/{match_id}/seats/1").json()["code"] == "seat-taken"
    assert client_for("caro").post(f"/api/matches/{match_id}/seats/7").status_code == 404
    assert ana.post(f"/api/matches/{match_id}/seats/1").status_code == 409

    bid = {"command_id": "c1", "expected_version": version, "type": "bid", "quantity": 2, "face": 3}
    spectator = client_for("caro")
    assert spectator.post(url, bid, format="json").json()["code"] == "not-seated"
    wrong = clients[other].post(url, {**bid, "command_id": "c0"}, format="json")
    assert wrong.status_code == 400 and wrong.json()["code"] == "not-your-turn"

    done = clients[player].post(url, bid, format="json")
    assert done.status_code == 201, done.content
    assert done.json()["version"] == version + 1
    again = clients[player].post(url, bid, format="json")
    assert (
        again.status_code == 200
        and again.json()["repeated"]
        and again.json()["events"] == done.json()["events"]
    )

    stale = clients[other].post(url, {**bid, "command_id": "c2", "quantity": 3}, format="json")
    assert stale.status_code == 409
    assert stale.json() == {**stale.json(), "code": "version-conflict", "current_version": version + 1}
    low = clients[other].post(
        url, {"command_id": "c3", "type": "bid", "quantity": 1, "face": 3}, format="json"
    )
    assert low.status_code == 400 and low.json()["code"] == "bid-not-higher"

    garbage: list[tuple[Any, str]] = [
        ("{not json", "malformed-json"),
        ("[1, 2]", "invalid-body"),
        (json.dumps({"type": "bid", "quantity": 2, "face": 3}), "invalid-command-id"),
        (json.dumps({"command_id": 5, "type": "dudo"}), "invalid-command-id"),
        (
            json.dumps({"command_id": "g1", "expected_version": "7", "type": "dudo"}),
            "invalid-expected-version",
        ),
        (
            json.dumps({"command_id": "g2", "expected_version": True, "type": "dudo"}),
            "invalid-expected-version",
        ),
        (json.dumps({"command_id": "g3"}), "missing-field"),
        (json.dumps({"command_id": "g4", "type": "fold"}), "unknown-command-type"),
        (json.dumps({"command_id": "g5", "type": "bid", "quantity": "2", "face": 3}), "invalid-field"),
        (json.dumps({"command_id": "g6", "type": "bid", "quantity": 2.5, "face": 3}), "invalid-field"),
        (json.dumps({"command_id": "g7", "type": "bid", "quantity": 2}), "missing-field"),
        (json.dumps({"command_id": "g8", "type": "dudo", "why": "x"}), "unknown-field"),
        (
            json.dumps({"command_id": "g9", "type": "bid", "quantity": 9, "face": 3, "direction": 1}),
            "invalid-field",
        ),
        (json.dumps({"command_id": "g10", "type": "bid", "quantity": 10**30, "face": 3}), "bid-exceeds-dice"),
        (json.dumps({"command_id": "x" * 65, "type": "dudo"}), "invalid-command-id"),
    ]
    for body, code in garbage:
        response = clients[other].post(url, body, content_type="application/json")
        assert response.status_code == 400, (body, response.content)
        assert response.json()["code"] == code, (body, response.json())

    for path in ("", "/events", "/record", "/verify"):
        assert ana.get(f"/api/matches/{uuid.uuid4()}{path}").json()["code"] == "not-found"
        assert ana.get(f"/api/matches/not-a-uuid{path}").status_code == 404
    assert ana.post(f"/api/matches/{uuid.uuid4()}/commands", bid, format="json").status_code == 404
    assert ana.get(f"/api/matches/{match_id}/events?after=x").json()["code"] == "invalid-after"
    assert ana.get(f"/api/matches/{match_id}/events?after=-1").status_code == 400
    assert beto.get(f"/api/matches/{match_id}/record").json()["code"] == "match-not-finished"
    assert client_for("ref").get(f"/api/matches/{match_id}/record").status_code == 200
    assert client_for("staffer", staff=True).get(f"/api/matches/{match_id}/record").status_code == 403
    verified = client_for(None).get(f"/api/matches/{match_id}/verify").json()
    assert verified["valid"] is True


def test_token_authentication_and_the_events_feed() -> None:
    match_id, _ = new_match()
    user = User.objects.get(username="ana")
    token = Token.objects.create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    body = client.get(f"/api/matches/{match_id}").json()
    assert body["viewer"] == {"kind": "player", "player": "ana"}
    events = client.get(f"/api/matches/{match_id}/events?after=0").json()
    assert [e["v"] for e in events["events"]] == [1, 2]
    assert [e["t"] for e in events["events"]] == ["match_started", "round_started"]
    assert client.get(f"/api/matches/{match_id}/events?after=1").json()["events"][0]["v"] == 2


def test_concurrent_api_commands_one_wins_the_rest_get_409() -> None:
    match_id, clients = new_match()
    player, version = on_turn(match_id, clients["ana"])
    url = f"/api/matches/{match_id}/commands"
    statuses: list[int] = []
    barrier = threading.Barrier(12)

    def send(number: int) -> None:
        client = client_for(player)
        body = {
            "command_id": f"t{number}",
            "expected_version": version,
            "type": "bid",
            "quantity": 2,
            "face": 5,
        }
        try:
            barrier.wait()
            statuses.append(client.post(url, body, format="json").status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send, args=(n,)) for n in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201] + [409] * 11
    stored = list(
        Event.objects.filter(stream_id=match_id).order_by("version").values_list("version", flat=True)
    )
    assert stored == list(range(1, version + 2))


RECORD = {
    "format": "cacho-match/1",
    "game": "dudo",
    "ruleset": "cacho-online",
    "options": {},
    "players": ["ana", "beto", "caro"],
    "setup": {
        "dice": {"ana": 5, "beto": 1, "caro": 3},
        "starter": "beto",
        "mode": "normal",
        "initial_players": 4,
        "calzo_disabled": True,
    },
    "rounds": [
        {
            "dice": {"ana": [1, 2, 3, 4, 5], "beto": [6], "caro": [2, 2, 3]},
            "direction": "ccw",
            "actions": [
                {"by": "beto", "bid": [2, 6]},
                {"by": "ana", "bid": [3, 6]},
                {"by": "caro", "call": "dudo"},
            ],
        }
    ],
}


def test_import_stores_nothing_for_a_bad_record_and_a_good_one_round_trips(referee_ref: None) -> None:
    scorekeeper = client_for("keeper")
    strangers = ((client_for("caro"), "import-not-allowed"), (client_for(None), "not-authenticated"))
    for stranger, code in strangers:
        refused = stranger.post("/api/matches/import", RECORD, format="json")
        assert refused.status_code == 403 and refused.json()["code"] == code
    broken = json.loads(json.dumps(RECORD))
    broken["rounds"][0]["actions"][1]["bid"] = [1, 6]
    for bad, code in [
        (broken, "bid-not-higher"),
        ({**RECORD, "players": "ana"}, None),
        ({**RECORD, "mystery": 1}, None),
        ({"format": "cacho-match/1"}, None),
        ([], "invalid-body"),
    ]:
        response = scorekeeper.post("/api/matches/import", bad, format="json")
        assert response.status_code == 400, response.content
        if code:
            assert response.json()["code"] == code
    assert not Match.objects.exists() and not Event.objects.exists()
    assert (
        scorekeeper.post("/api/matches/import", "{oops", content_type="application/json").status_code == 400
    )

    created = scorekeeper.post("/api/matches/import", RECORD, format="json")
    assert created.status_code == 201, created.content
    match_id = created.json()["id"]
    assert created.json()["imported"] is True
    exported = client_for("ref").get(f"/api/matches/{match_id}/record").json()
    from cacho.engine.record import replay_record

    assert replay_record(exported) == replay_record(RECORD)
    assert client_for(None).get(f"/api/matches/{match_id}/verify").json()["valid"] is True

    alalay = {
        "format": "cacho-match/1",
        "game": "alalay",
        "ruleset": "alalay",
        "players": ["ana", "beto"],
        "turns": [{"by": "ana", "throw": [2, 3, 4, 5, 6], "score": "straight"}],
    }
    created = scorekeeper.post("/api/matches/import", alalay, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["state"]["entries"][0]["card"]["straight"] == 25
    # a record that stops mid-match is a physical table's: no clock runs on it, ever
    assert created.json()["state"]["physical"] is True
    assert created.json()["deadline"] is None and created.json()["status"] == "live"
    assert Match.objects.get(pk=created.json()["id"]).turn_key == ""
