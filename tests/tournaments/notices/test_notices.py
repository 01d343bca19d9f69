"""Notices end to end: a round drawn tells each seated player, in the app (the bell's list)
and by email (a real SMTP server), by the channels each chose; a hidden tab's turn is pushed
to the player's browser (a real push endpoint, the payload decrypted as a browser would);
the choices are respected; no notice carries a die."""

from __future__ import annotations

import datetime as dt
import json
import random
from typing import Any

import pytest
from django.utils import timezone

from cacho.engine.games import game_for
from cacho.models import DiceSeed, Event
from cacho.services import matches as match_service
from cacho.services.dispatch import DISPATCH
from tests.accounts.smtp import Mailbox
from tests.cacho.helpers import bot_move, state_of
from tests.tournaments.helpers import seat_named
from tests.tournaments.notices.conftest import Evening
from tests.tournaments.notices.push_server import PushServer
from tournaments.models import Table
from tournaments.notices.models import Notice
from tournaments.notices.triggers import notify_starting
from tournaments.services import start_tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]

_ids = iter(range(1, 1_000_000))
RNG = random.Random(32)


def _secrets(match_id: Any) -> list[str]:
    """The hands still under the cups and their seeds."""
    unrevealed = dict(DiceSeed.objects.filter(match_id=match_id, revealed=False).values_list("scope", "seed"))
    hands = [
        json.dumps(hand, separators=(",", ":"))
        for event in Event.objects.filter(stream_id=match_id, type="round_started")
        if f"round-{event.payload['number']}" in unrevealed
        for hand in event.payload["dice"]
    ]
    return hands + list(unrevealed.values())


def _to_act(match_id: Any) -> str | None:
    return game_for("dudo").to_act(state_of(match_id))


def _move(match_id: Any) -> None:
    """The player on turn plays the bots' move."""
    player, payload = bot_move(state_of(match_id), RNG)
    match_service.submit(match_id, player, payload, f"notices-{next(_ids)}")


def _until_her_turn(match_id: Any, player: str) -> None:
    """She moves if she is on turn, then the others until she is again."""
    if _to_act(match_id) == player:
        _move(match_id)
    while _to_act(match_id) != player:
        _move(match_id)


def test_a_drawn_round_tells_each_seated_player_in_the_app_and_by_email(
    evening: Evening, mailbox: Mailbox
) -> None:
    chose = evening.client("beto").put(
        "/api/me/notice-settings",
        {"choices": {"table-ready": {"in_app": True, "email": False, "push": False}}},
        format="json",
    )
    assert chose.status_code == 200, chose.json()
    assert {k["kind"]: k["email"] for k in chose.json()["kinds"]}["table-ready"] is False
    nothing = {"in_app": False, "email": False, "push": False}
    evening.client("dani").put(
        "/api/me/notice-settings", {"choices": {"table-ready": nothing}}, format="json"
    )
    everything = {"in_app": True, "email": True, "push": False}
    in_spanish = evening.client("caro", "es").put(
        "/api/me/notice-settings", {"choices": {"table-ready": everything}}, format="json"
    )
    assert in_spanish.status_code == 200, in_spanish.json()

    start_tournament(evening.tournament.pk, evening.organiser)

    table = evening.table_of("ana")
    listed = evening.client("ana").get("/api/me/notices").json()
    assert listed["unread"] == 1
    [notice] = listed["notices"]
    assert notice["kind"] == "table-ready" and notice["read"] is False
    assert notice["title"] == "Your next table is ready"
    assert notice["body"] == f"Jueves, round 1: table {table.number}."
    assert notice["link"] == f"/matches/{table.match_id}/"
    spanish = evening.client("ana", "es").get("/api/me/notices").json()["notices"][0]
    assert spanish["title"] == "Tu próxima mesa está lista"

    [mail] = mailbox.wait_for("ana@example.org")
    assert mail.subject == "Your next table is ready"
    assert f"http://testserver/matches/{table.match_id}/" in mail.links()
    assert f"http://testserver/matches/{table.match_id}/" in mail.html

    # beto chose the bell only, dani nothing at all; caro chose in Spanish, and hears so.
    [caro_mail] = mailbox.wait_for("caro@example.org")
    assert caro_mail.subject == "Tu próxima mesa está lista"
    assert evening.client("beto").get("/api/me/notices").json()["unread"] == 1
    assert mailbox.to("beto@example.org") == []
    assert not Notice.objects.filter(user=evening.players["dani"]).exists()

    # A notice names a tournament, a round and a table: no hand, no seed.
    secrets = [
        s for t in Table.objects.filter(round__tournament=evening.tournament) for s in _secrets(t.match_id)
    ]
    assert secrets
    shown = json.dumps(listed) + mail.text + mail.html
    assert not [s for s in secrets if s in shown]
    assert set(Notice.objects.get(user=evening.players["ana"]).params) == {
        "tournament",
        "tournament_name",
        "round",
        "table",
    }

    read = evening.client("ana").post("/api/me/notices/read", {"all": True}, format="json")
    assert read.json() == {"unread": 0}

    # The same round told again (a repeated task) adds nothing, and delivering its notices
    # again sends no channel twice.
    from tournaments.mail.models import OutgoingMail
    from tournaments.notices.delivery import deliver_notices
    from tournaments.notices.triggers import notify_round_drawn

    assert notify_round_drawn(table.round_id) == 0
    queued = OutgoingMail.objects.count()
    deliver_notices(list(Notice.objects.values_list("pk", flat=True)))
    assert OutgoingMail.objects.count() == queued


def test_deliveries_at_once_send_each_channel_once(evening: Evening, mailbox: Mailbox) -> None:
    """Four deliveries of the same notices racing (a task retried while its first run still
    works, a sweep): each chosen email is queued once, each bell claimed once."""
    import threading

    from django.db import connection

    from tournaments.mail.models import OutgoingMail
    from tournaments.notices.delivery import deliver_notices

    everything = {"in_app": True, "email": True, "push": False}
    for name in ("ana", "beto", "caro"):
        evening.client(name).put(
            "/api/me/notice-settings", {"choices": {"table-ready": everything}}, format="json"
        )
    start_tournament(evening.tournament.pk, evening.organiser)
    emailed = list(Notice.objects.filter(email=True).values_list("pk", flat=True))
    assert len(emailed) >= 3
    # As if no delivery had run yet: every channel free again, no mail queued.
    Notice.objects.update(announced_at=None, emailed_at=None)
    OutgoingMail.objects.all().delete()

    ids = list(Notice.objects.values_list("pk", flat=True))
    barrier = threading.Barrier(4)
    failures: list[BaseException] = []

    def deliver() -> None:
        try:
            barrier.wait(timeout=5)
            deliver_notices(ids)
        except BaseException as error:  # reported below: a thread's failure fails the test
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=deliver) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert failures == []
    assert OutgoingMail.objects.filter(kind="notice").count() == len(emailed)
    assert sorted(OutgoingMail.objects.values_list("to", flat=True)) == sorted(
        Notice.objects.filter(pk__in=emailed).values_list("user__email", flat=True)
    )
    assert not Notice.objects.filter(in_app=True, announced_at__isnull=True).exists()
    assert not Notice.objects.filter(email=True, emailed_at__isnull=True).exists()


def test_a_hidden_tab_hears_its_turn_by_push(evening: Evening, push_server: PushServer) -> None:
    start_tournament(evening.tournament.pk, evening.organiser)
    ana = evening.client("ana")
    match_id = evening.table_of("ana").match_id
    subscribed = ana.post("/api/me/push-subscriptions", push_server.subscription(), format="json")
    assert subscribed.status_code == 201, subscribed.content
    before = len(push_server.pushes)  # "your table is ready" may not have found a browser yet
    assert (
        ana.post("/api/me/hidden-tab", {"match": str(match_id), "hidden": True}, format="json").status_code
        == 204
    )

    _until_her_turn(
        match_id, seat_named(match_id, "ana")
    )  # her own moves put the opponent on turn; theirs, her
    DISPATCH.drain()
    pushes = push_server.wait(before + 1)
    assert len(pushes) == before + 1
    push = pushes[-1]
    assert push.headers["content-encoding"] == "aes128gcm"
    assert push.headers["authorization"].startswith("vapid t=")
    payload = push_server.decrypt(push)
    assert payload == {
        "title": "It is your turn",
        "body": "Your table is waiting for your move.",
        "url": f"/matches/{match_id}/",
        "tag": payload["tag"],
    }
    assert not [s for s in _secrets(match_id) if s in json.dumps(payload)]

    # Shown again: her next turn is not pushed.
    ana.post("/api/me/hidden-tab", {"match": str(match_id), "hidden": False}, format="json")
    _until_her_turn(match_id, seat_named(match_id, "ana"))
    DISPATCH.drain()
    assert len(push_server.pushes) == before + 1

    # Hidden, but she chose no push for her turn: nothing either.
    off = {"in_app": False, "email": False, "push": False}
    ana.put("/api/me/notice-settings", {"choices": {"your-turn": off}}, format="json")
    ana.post("/api/me/hidden-tab", {"match": str(match_id), "hidden": True}, format="json")
    _until_her_turn(match_id, seat_named(match_id, "ana"))
    DISPATCH.drain()
    assert len(push_server.pushes) == before + 1


def test_a_gone_subscription_is_forgotten(evening: Evening, push_server: PushServer) -> None:
    push_server.status = 410
    evening.client("ana").post("/api/me/push-subscriptions", push_server.subscription(), format="json")
    start_tournament(evening.tournament.pk, evening.organiser)  # "table ready": pushed by default
    push_server.wait(1)
    assert evening.client("ana").get("/api/me/notice-settings").json()["push"]["subscriptions"] == 0


def test_registered_players_hear_fifteen_minutes_before_the_start(evening: Evening, mailbox: Mailbox) -> None:
    now = timezone.now()
    evening.tournament.checkin_deadline = now + dt.timedelta(minutes=20)
    evening.tournament.save(update_fields=["checkin_deadline"])
    assert notify_starting(now) == 0
    assert notify_starting(now + dt.timedelta(minutes=6)) == 4
    assert notify_starting(now + dt.timedelta(minutes=7)) == 0  # once
    [notice] = evening.client("caro").get("/api/me/notices").json()["notices"]
    assert notice["title"] == "Your tournament starts in 15 minutes"
    assert notice["link"] == f"/tournaments/{evening.tournament.pk}/"
    mailbox.wait_for("caro@example.org")


def test_bad_choices_are_refused_and_store_nothing(evening: Evening) -> None:
    ana = evening.client("ana")
    refused = ana.put(
        "/api/me/notice-settings",
        {"choices": {"weather": {"in_app": True, "email": True, "push": True}}},
        format="json",
    )
    assert (refused.status_code, refused.json()["code"]) == (400, "unknown-notice-kind")
    bad = ana.post("/api/me/push-subscriptions", {"endpoint": "not a url", "keys": {}}, format="json")
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid-input")
    assert ana.get("/api/me/notice-settings").json()["push"]["subscriptions"] == 0
    for body in ({"match": "0b4f7e0e-2c53-4a39-9a4c-6f1b1d2a3c4d"}, {"hidden": True}):
        for kind in ("json", "multipart"):  # a form's missing boolean is no "false"
            unnamed = ana.post("/api/me/hidden-tab", body, format=kind)
            assert (unnamed.status_code, unnamed.json()["code"]) == (400, "invalid-input"), (body, kind)
    # A form body cannot carry the choices' object: given as one plain value (a JSON text,
    # a word) it is refused, not read as "no change" and answered 200.
    for flat in ('{"table-ready": false}', "off"):
        for kind in ("multipart", "form"):
            sent = (
                ana.put("/api/me/notice-settings", {"choices": flat}, format="multipart")
                if kind == "multipart"
                else ana.put(
                    "/api/me/notice-settings",
                    f"choices={flat}",
                    content_type="application/x-www-form-urlencoded",
                )
            )
            assert (sent.status_code, sent.json()["code"]) == (400, "invalid-input"), (flat, kind)
            assert list(sent.json()["fields"]) == ["choices"]
    # The same for a nested serializer's field (the subscription's keys).
    flat_keys = ana.post(
        "/api/me/push-subscriptions",
        {"endpoint": "https://push.example.org/a", "keys": '{"p256dh": "x", "auth": "y"}'},
        format="multipart",
    )
    assert (flat_keys.status_code, flat_keys.json()["fields"]) == (
        400,
        {"keys": ["An object is expected here: send the body as JSON."]},
    )
    spanish = ana.put(
        "/api/me/notice-settings", {"choices": "off"}, format="multipart", HTTP_ACCEPT_LANGUAGE="es"
    )
    assert spanish.json()["fields"]["choices"] == ["Aquí se espera un objeto: envía el cuerpo como JSON."]
    from tournaments.notices.models import HiddenTab, NoticeSettings

    assert not NoticeSettings.objects.exists() and not HiddenTab.objects.exists()
    anonymous = evening.client("ana")
    anonymous.force_authenticate(None)
    assert anonymous.get("/api/me/notices").status_code in (401, 403)
