"""A player deletes their account in Chromium, in Spanish: "Delete my account" under My
account, a wrong password refused on the page, then deleted; the replay and the table of
a match they played (seated by their player id) show "deleted player N" in the reader's
language and never their name nor the id. Screenshots and axe on each step."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import ConsoleWatch, shot
from tests.frontend.test_accessibility import axe_clean
from tests.test_foundation.helpers import Server

pytestmark = [pytest.mark.slow]

PASSWORD = "la-de-siempre-42"


def _finished_match() -> tuple[str, str]:
    """A finished open-table match of ana and beto: its id and ana's player id."""
    from django.contrib.auth import get_user_model

    from cacho.models import Player
    from tests.tournaments.helpers import play_bidding_match
    from tournaments import matches

    users = [get_user_model().objects.create_user(n, password=PASSWORD) for n in ("ana", "beto")]
    match_id = matches.create_open_match(
        "dudo", ["ana", "beto"], users, {}, options={}, turn_seconds=60, created_by=users[0]
    )
    play_bidding_match(match_id, random.Random(5))
    return str(match_id), Player.objects.get(user=users[0]).public_id


def test_a_player_deletes_their_account_and_their_matches_name_them_no_more(
    browser: Any, server: Server, console_watch: ConsoleWatch
) -> None:
    match_id, seat = _finished_match()
    number = seat[1:]
    context = browser.new_context(locale="es", viewport={"width": 1100, "height": 900})
    context.add_cookies([{"name": "django_language", "value": "es", "url": server.url}])
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.set_default_navigation_timeout(30_000)
    try:
        page.goto(server.url + "/login/")
        page.fill("#id_username", "ana")
        page.fill("#id_password", PASSWORD)
        page.click("form.stack button[type=submit]")
        page.wait_for_url("**/me/")
        page.goto(server.url + "/account/")
        page.click("#account-delete-link")
        page.wait_for_selector("#account-delete-form")
        page.fill("#id_password", "no-es-esta")
        page.check("#id_confirm")
        page.click("#account-delete-submit")
        page.wait_for_selector("#account-delete-form .error")
        assert "Esa no es tu contraseña." in page.inner_text("#account-delete-form")
        shot(page, "account-delete-refused-es")
        axe_clean(page, "account-delete-refused-es")

        console_watch.watch(page)  # from here on (the refusal above answers 403 on purpose)
        page.fill("#id_password", PASSWORD)
        page.check("#id_confirm")
        page.click("#account-delete-submit")
        page.wait_for_selector("#account-message[data-kind=done]")
        assert f"jugador eliminado {number}" in page.inner_text("#account-message")
        shot(page, "account-deleted-es")
        axe_clean(page, "account-deleted-es")

        for path, ready in (
            (f"/matches/{match_id}/replay", "#replay[data-loaded]"),
            (f"/matches/{match_id}", "#end-title"),
        ):
            page.goto(server.url + path)
            page.wait_for_selector(ready)
            expect(page.locator("body")).to_contain_text(f"jugador eliminado {number}")
            words = page.inner_text("body").replace(",", " ").replace(".", " ").replace(":", " ").split()
            assert "ana" not in words and seat not in words, path
        shot(page, "account-deleted-table-es")
        page.goto(server.url + "/account/")
        assert "/login/" in page.url  # the session ended with the account
    finally:
        context.close()
