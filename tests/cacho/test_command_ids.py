"""Command ids belong to the seat that sent them: the same seat repeating the same command
gets its first result; the id reused by another seat, or with another payload, is a 409
`command-id-reused` and the other command is neither lost nor answered with someone
else's events."""

from __future__ import annotations

import pytest

from cacho.models import Event
from cacho.services import matches
from tests.cacho.test_api import new_match, on_turn

pytestmark = [pytest.mark.usefixtures("committed_db"), pytest.mark.sqlite_too]


def test_another_seat_reusing_an_id_gets_a_conflict_and_its_move_is_not_lost() -> None:
    match_id, clients = new_match()
    first, version = on_turn(match_id, clients["ana"])
    second = "beto" if first == "ana" else "ana"
    url = f"/api/matches/{match_id}/commands"
    opening = {"command_id": "shared", "type": "bid", "quantity": 2, "face": 3}
    assert clients[first].post(url, opening, format="json").status_code == 201

    reused = clients[second].post(
        url, {"command_id": "shared", "type": "bid", "quantity": 3, "face": 3}, format="json"
    )
    assert reused.status_code == 409, reused.content
    assert reused.json() == {**reused.json(), "code": "command-id-reused", "current_version": version + 1}
    assert set(reused.json()) >= {"code", "message"}
    # Nothing was written for it, and the same bid under an id of its own is played.
    assert Event.objects.filter(stream_id=match_id).count() == version + 1
    played = clients[second].post(
        url, {"command_id": "own", "type": "bid", "quantity": 3, "face": 3}, format="json"
    )
    assert played.status_code == 201, played.content
    assert played.json()["events"][0]["d"]["quantity"] == 3


def test_the_same_seat_with_another_payload_gets_a_conflict() -> None:
    match = matches.create_match("dudo", ["ana", "beto"], first_seat=0)
    done = matches.submit(match.pk, "ana", {"type": "bid", "quantity": 2, "face": 3}, "id-1")
    with pytest.raises(matches.CommandIdReused) as refused:
        matches.submit(match.pk, "ana", {"type": "bid", "quantity": 2, "face": 4}, "id-1")
    assert refused.value.current_version == done.version
    again = matches.submit(match.pk, "ana", {"type": "bid", "quantity": 2, "face": 3}, "id-1")
    assert again.repeated and [e.version for e in again.events] == [e.version for e in done.events]
    # The id marks the command's first event with who sent what (never served to clients).
    first = Event.objects.get(stream=match, command_id="id-1")
    assert first.metadata["command"] == matches.command_key("ana", {"type": "bid", "quantity": 2, "face": 3})


def test_a_repeat_from_the_same_seat_over_rest_is_the_first_result() -> None:
    match_id, clients = new_match()
    player, _ = on_turn(match_id, clients["ana"])
    url = f"/api/matches/{match_id}/commands"
    bid = {"command_id": "twice", "type": "bid", "quantity": 2, "face": 5}
    done = clients[player].post(url, bid, format="json")
    again = clients[player].post(url, bid, format="json")
    assert (done.status_code, again.status_code) == (201, 200)
    assert again.json()["repeated"] and again.json()["events"] == done.json()["events"]
