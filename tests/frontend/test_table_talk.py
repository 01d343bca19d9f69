"""Table talk in a real browser at phone size (390x844), on a casual match made through
`POST /api/matches`: two players exchange a quick phrase and a free message (an XSS payload,
drawn as text), a spectator's message never shows on a player's page while they play, one
player reports a message and the report appears in the site moderators' queue with the
messages around it. Screenshots and axe on the match page and on the queue."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from rest_framework.test import APIClient

from cacho.models import ChatReport
from tests.frontend.conftest import shot
from tests.frontend.test_accessibility import axe_clean
from tests.live.harness import session_cookie
from tournaments.clubs import members as club_members

pytestmark = [pytest.mark.slow]

PHONE = {"width": 390, "height": 844}
PAYLOAD = '<img src=x onerror="document.body.dataset.pwned=1"> nice one'


def casual_match() -> str:
    users = {name: get_user_model().objects.get_or_create(username=name)[0] for name in ("ana", "beto")}
    host = APIClient()
    host.force_authenticate(users["ana"])
    made = host.post(
        "/api/matches", {"ruleset": "dudo", "players": ["ana", "beto"], "seat": 0}, format="json"
    )
    assert made.status_code == 201, made.content
    match_id = made.json()["id"]
    guest = APIClient()
    guest.force_authenticate(users["beto"])
    assert guest.post(f"/api/matches/{match_id}/seats/1", format="json").status_code == 200
    return str(match_id)


def _talk_ready(page: Any) -> None:
    page.wait_for_selector("#match[data-version]")
    page.wait_for_selector("#talk-log li")  # the history arrived (an empty one says so)


def test_two_players_talk_and_a_report_reaches_the_site_moderators(open_page: Any) -> None:
    match_id = casual_match()
    moderator = get_user_model().objects.get_or_create(username="moderator")[0]
    moderator.user_permissions.add(Permission.objects.get(codename="moderate_chat"))
    session_cookie("watcher")
    ana = open_page(f"/matches/{match_id}/", "ana", viewport=PHONE, watch=True)
    beto = open_page(f"/matches/{match_id}/", "beto", viewport=PHONE, watch=True)
    watcher = open_page(f"/matches/{match_id}/", "watcher", viewport=PHONE, watch=True)
    for page in (ana, beto, watcher):
        _talk_ready(page)
    assert ana.locator("#talk .talk-tab").count() == 0  # a player reads the players' chat alone

    # The gallery talks first: nothing of it reaches a player's page while the table plays.
    watcher.fill("#talk-input", "ana holds two fives")
    watcher.click("#talk-send")
    watcher.wait_for_selector("#talk-log li:has-text('ana holds two fives')")

    ana.click("#talk button[data-phrase='good-luck']")
    beto.wait_for_selector("#talk-log li.phrase:has-text('Good luck')")
    beto.fill("#talk-input", PAYLOAD)
    beto.click("#talk-send")
    ana.wait_for_selector("#talk-log li:has-text('nice one')")
    assert ana.locator("#talk-log li:has-text('nice one') .talk-text").text_content() == PAYLOAD
    assert ana.locator("#talk-log img").count() == 0 and ana.evaluate("document.body.dataset.pwned") is None
    assert beto.input_value("#talk-input") == ""
    # The spectator reads the players' chat too, in its own tab.
    watcher.click("#talk .talk-tab[data-channel='players']")
    watcher.wait_for_selector("#talk-log li:has-text('nice one')")
    for page in (ana, beto):
        assert page.locator("text=ana holds two fives").count() == 0
        assert "ana holds two fives" not in page.content()

    # Phone width: the panel fits, nothing scrolls sideways.
    assert ana.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    ana.locator("#talk").scroll_into_view_if_needed()
    shot(ana, "talk-phone-player")
    axe_clean(ana, "talk-match-phone")

    ana.click("#talk-log li:has-text('nice one') button.talk-report")
    ana.wait_for_selector("#talk-log .talk-reported")
    shot(ana, "talk-phone-reported")
    report = ChatReport.objects.get()
    assert report.club_id is None and report.message.text == PAYLOAD.strip()

    queue = open_page("/talk/reports/", "moderator", viewport=PHONE, watch=True)
    card = queue.wait_for_selector(f"[data-report='{report.pk}']")
    assert "nice one" in card.text_content() and "Good luck" in card.text_content()
    assert queue.locator(".talk-context li.reported").count() == 1
    assert queue.locator("img").count() == 0
    assert queue.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(queue, "talk-phone-queue")
    axe_clean(queue, "talk-queue-phone")
    queue.click(f"[data-report='{report.pk}'] button[data-resolve='acted']")
    queue.wait_for_selector("#talk-queue-status:has-text('No reported messages')")
    report.refresh_from_db()
    assert report.status == "acted"


def test_the_queue_in_spanish_and_a_stranger_is_refused(open_page: Any) -> None:
    match_id = casual_match()
    moderator = get_user_model().objects.get_or_create(username="moderadora")[0]
    moderator.user_permissions.add(Permission.objects.get(codename="moderate_chat"))
    ana = open_page(f"/matches/{match_id}/", "ana", viewport=PHONE, locale="es", watch=True)
    _talk_ready(ana)
    assert ana.locator("#talk h2").text_content() == "Charla de mesa"
    assert ana.locator("#talk button[data-phrase='good-play']").text_content() == "Buena jugada"
    queue = open_page("/talk/reports/", "moderadora", viewport=PHONE, locale="es", watch=True)
    queue.wait_for_selector("#talk-queue-status:has-text('No hay mensajes denunciados')")
    stranger = open_page("/talk/reports/", "beto", viewport=PHONE)
    stranger.wait_for_selector("#error:not([hidden])")
    assert "chat-not-moderator" in stranger.locator("#error").text_content()


def test_the_organisers_switch_the_players_chat_from_the_console(open_page: Any) -> None:
    from tests.live.harness import wait_for
    from tournaments import services
    from tournaments.models import Tournament

    session_cookie("olga")
    club = club_members.create_club(
        "Club de la charla", "charla", get_user_model().objects.get(username="olga")
    )
    tournament = services.create_tournament(
        club.pk, get_user_model().objects.get(username="olga"), name="Copa", ruleset="dudo"
    )
    page = open_page(f"/organise/?t={tournament.pk}", "olga", viewport=PHONE, watch=True)
    page.wait_for_selector("#manage:not([hidden])")
    box = page.locator("#m-player-chat")
    assert box.is_visible() and not box.is_checked()  # off by default for a tournament
    box.check()
    wait_for(lambda: Tournament.objects.get(pk=tournament.pk).player_chat)
    shot(page, "talk-organiser-switch")
