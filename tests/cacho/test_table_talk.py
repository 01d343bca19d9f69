"""Table talk over the REST API (docs/table-talk.md): who writes where, who reads what,
the length and rate limits (nothing stored on a refusal), muting, reporting into the site
moderators' queue with the messages around, and its resolution."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from rest_framework.test import APIClient

from cacho.models import ChatMessage, ChatReport, Match
from cacho.services import matches

pytestmark = [pytest.mark.usefixtures("committed_db"), pytest.mark.sqlite_too]

User = get_user_model()
PLAYERS = ("ana", "beto", "caro")


def client_of(name: str | None) -> APIClient:
    client = APIClient()
    if name is not None:
        client.force_authenticate(User.objects.get_or_create(username=name)[0])
    return client


def casual_match(players: tuple[str, ...] = PLAYERS) -> Match:
    match = matches.create_match("dudo", list(players), first_seat=0)
    for index, name in enumerate(players):
        matches.take_seat(match.pk, index, User.objects.get_or_create(username=name)[0])
    return match


def chat(match: Match) -> str:
    return f"/api/matches/{match.pk}/chat"


def say(name: str | None, match: Match, **body: Any) -> Any:
    return client_of(name).post(chat(match), body, format="json")


def read(name: str | None, match: Match) -> list[dict[str, Any]]:
    response = client_of(name).get(chat(match))
    assert response.status_code == 200, response.content
    return response.json()["messages"]


def finish(match: Match) -> None:
    for index, name in enumerate(PLAYERS[:-1]):
        matches.submit(match.pk, name, {"type": "abandon"}, f"leave-{index}", None)
    assert Match.objects.get(pk=match.pk).status == Match.STATUS_FINISHED


def test_players_talk_with_phrases_and_words_and_everyone_reads_the_players_chat() -> None:
    match = casual_match()
    phrase = say("ana", match, channel="players", phrase="good-luck")
    assert phrase.status_code == 201, phrase.content
    assert phrase.json() | {"at": 0} == {
        "id": phrase.json()["id"],
        "c": "players",
        "seat": "ana",
        "author": "ana",
        "phrase": "good-luck",
        "text": "",
        "at": 0,
    }
    words = say("beto", match, channel="players", text="  <b>suerte</b> a todos  ")
    assert words.status_code == 201 and words.json()["text"] == "<b>suerte</b> a todos"
    for reader in ("caro", "watcher", None):
        assert [m["id"] for m in read(reader, match)] == [phrase.json()["id"], words.json()["id"]]


def test_who_writes_where_is_refused_with_stable_codes_and_nothing_is_stored() -> None:
    match = casual_match()
    refusals = [
        (say("watcher", match, channel="players", text="hi"), 403, "chat-not-seated"),
        (say("ana", match, channel="spectators", text="hi"), 403, "chat-players-elsewhere"),
        (say(None, match, channel="spectators", text="hi"), 403, "chat-sign-in"),
        (say("ana", match, channel="kitchen", text="hi"), 400, "chat-channel-unknown"),
        (say("ana", match, channel="players", text="   "), 400, "chat-empty"),
        (say("ana", match, channel="players"), 400, "chat-empty"),
        (say("ana", match, channel="players", phrase="insult"), 400, "chat-phrase-unknown"),
        (say("ana", match, channel="players", phrase="dudo", text="x"), 400, "chat-text-and-phrase"),
        (say("ana", match, channel="players", text="a\x07b"), 400, "chat-text-invalid"),
        (say("ana", match, channel="players", text="x" * 281), 400, "chat-too-long"),
        (say("ana", match, channel="players", text="hi", color="red"), 400, "unknown-field"),
    ]
    for response, status, code in refusals:
        assert (response.status_code, response.json()["code"]) == (status, code), response.content
    assert say("ana", match, channel="players", text="x" * 280).status_code == 201
    assert ChatMessage.objects.count() == 1


def test_the_rate_limit_refuses_with_retry_after_and_stores_nothing(settings: Any) -> None:
    settings.CACHO_RATES = {**settings.CACHO_RATES, "chat": "3/min"}
    match = casual_match()
    for n in range(3):
        assert say("ana", match, channel="players", text=f"m{n}").status_code == 201
    refused = say("ana", match, channel="players", text="one too many")
    assert refused.status_code == 429
    assert refused.json()["code"] == "chat-rate-limited" and refused.json()["retry_after"] >= 1
    assert ChatMessage.objects.filter(match=match).count() == 3
    assert say("beto", match, channel="players", text="my own count").status_code == 201


def test_the_spectators_chat_is_hidden_from_the_players_until_the_end() -> None:
    match = casual_match()
    gallery = say("watcher", match, channel="spectators", text="ana has two fives!")
    assert gallery.status_code == 201, gallery.content
    assert gallery.json()["c"] == "spectators"
    for player in PLAYERS:
        assert read(player, match) == []
        settings = client_of(player).get(chat(match)).json()["settings"]
        assert settings["reads"] == ["players"] and settings["can_post"] == ["players"]
    assert [m["text"] for m in read("other-watcher", match)] == ["ana has two fives!"]
    assert [m["text"] for m in read(None, match)] == ["ana has two fives!"]
    finish(match)
    for player in PLAYERS:
        assert [m["text"] for m in read(player, match)] == ["ana has two fives!"]


def test_a_player_mutes_another_for_themself() -> None:
    match = casual_match()
    muted = client_of("ana").post(f"{chat(match)}/mutes", {"seat": "beto"}, format="json")
    assert muted.status_code == 200 and muted.json() == {"muted": ["beto"]}
    say("beto", match, channel="players", text="blah blah")
    say("caro", match, channel="players", phrase="thanks")
    assert [m["seat"] for m in read("ana", match)] == ["caro"]
    assert [m["seat"] for m in read("caro", match)] == ["beto", "caro"]
    assert [m["seat"] for m in read("watcher", match)] == ["beto", "caro"]
    for name, body, code in [
        ("ana", {"seat": "ana"}, "chat-mute-self"),
        ("ana", {"seat": "nobody"}, "chat-seat-unknown"),
        ("watcher", {"seat": "beto"}, "chat-not-seated"),
        ("ana", {"seat": "beto", "muted": "yes"}, "chat-muted-invalid"),
    ]:
        assert client_of(name).post(f"{chat(match)}/mutes", body, format="json").json()["code"] == code
    unmuted = client_of("ana").post(f"{chat(match)}/mutes", {"seat": "beto", "muted": False}, format="json")
    assert unmuted.json() == {"muted": []}
    assert [m["seat"] for m in read("ana", match)] == ["beto", "caro"]


def moderator(name: str = "mod") -> APIClient:
    user = User.objects.get_or_create(username=name)[0]
    user.user_permissions.add(Permission.objects.get(codename="moderate_chat"))
    client = APIClient()
    client.force_authenticate(User.objects.get(pk=user.pk))  # permissions cached per instance
    return client


def test_a_report_lands_in_the_site_moderators_queue_with_the_messages_around_it() -> None:
    match = casual_match()
    ids = [say(PLAYERS[n % 3], match, channel="players", text=f"m{n}").json()["id"] for n in range(9)]
    reported = ids[7]  # written by beto
    filed = client_of("ana").post(
        f"{chat(match)}/reports", {"message": reported, "reason": "rude"}, format="json"
    )
    assert filed.status_code == 201, filed.content
    body = filed.json()
    assert body["queue"] == "site" and body["club"] is None and body["status"] == "open"
    assert [m["id"] for m in body["context"]] == ids[2:9]  # five before, the message, what followed
    again = client_of("ana").post(f"{chat(match)}/reports", {"message": reported}, format="json")
    assert (again.status_code, again.json()["code"]) == (409, "chat-already-reported")
    own = client_of("beto").post(f"{chat(match)}/reports", {"message": reported}, format="json")
    assert own.json()["code"] == "chat-report-own"
    missing = client_of("ana").post(f"{chat(match)}/reports", {"message": 10**9}, format="json")
    assert (missing.status_code, missing.json()["code"]) == (404, "chat-message-unknown")

    stranger = client_of("stranger").get("/api/talk/reports")
    assert (stranger.status_code, stranger.json()["code"]) == (403, "chat-not-moderator")
    queue = moderator().get("/api/talk/reports")
    assert queue.status_code == 200
    [listed] = queue.json()["reports"]
    assert listed["message"]["text"] == "m7" and listed["reporter"] == "ana" and listed["reason"] == "rude"

    resolve = f"/api/talk/reports/{listed['id']}/resolve"
    assert client_of("stranger").post(resolve, {"outcome": "acted"}, format="json").status_code == 403
    assert (
        moderator().post(resolve, {"outcome": "maybe"}, format="json").json()["code"]
        == "chat-outcome-unknown"
    )
    done = moderator().post(resolve, {"outcome": "acted", "note": "warned beto"}, format="json")
    assert done.status_code == 200 and done.json()["status"] == "acted"
    twice = moderator().post(resolve, {"outcome": "dismissed"}, format="json")
    assert (twice.status_code, twice.json()["code"]) == (409, "chat-report-resolved")
    assert moderator().get("/api/talk/reports").json()["reports"] == []
    assert len(moderator().get("/api/talk/reports?status=all").json()["reports"]) == 1
    assert ChatReport.objects.get().note == "warned beto"


def test_a_player_cannot_report_a_spectators_message_they_cannot_read() -> None:
    match = casual_match()
    gallery = say("watcher", match, channel="spectators", text="psst").json()["id"]
    hidden = client_of("ana").post(f"{chat(match)}/reports", {"message": gallery}, format="json")
    assert (hidden.status_code, hidden.json()["code"]) == (404, "chat-message-unknown")
    assert ChatReport.objects.count() == 0


def test_messages_are_append_only() -> None:
    from django.db import DatabaseError, transaction

    match = casual_match()
    say("ana", match, channel="players", text="first")
    with pytest.raises(DatabaseError), transaction.atomic():
        ChatMessage.objects.update(text="rewritten")
    with pytest.raises(DatabaseError), transaction.atomic():
        ChatMessage.objects.all().delete()
    assert ChatMessage.objects.get().text == "first"


def test_the_phrases_come_in_the_request_language() -> None:
    english = client_of(None).get("/api/talk/phrases", HTTP_ACCEPT_LANGUAGE="en").json()["phrases"]
    spanish = client_of(None).get("/api/talk/phrases", HTTP_ACCEPT_LANGUAGE="es").json()["phrases"]
    assert english["good-luck"] == "Good luck" and spanish["good-luck"] == "Suerte"
    assert spanish["dudo"] == "¡Dudo!" and spanish["good-play"] == "Buena jugada"
    assert set(english) == set(spanish)


def test_every_talk_action_is_in_the_openapi_schema() -> None:
    schema = client_of(None).get("/api/schema/", HTTP_ACCEPT="application/json").json()
    paths = schema["paths"]
    assert {"get", "post"} <= set(paths["/api/matches/{match_id}/chat"])
    for path in (
        "/api/matches/{match_id}/chat/mutes",
        "/api/matches/{match_id}/chat/reports",
        "/api/talk/reports/{report_id}/resolve",
    ):
        assert "post" in paths[path]
    assert "get" in paths["/api/talk/reports"] and "get" in paths["/api/talk/phrases"]
