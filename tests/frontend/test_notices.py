"""The notices' bell in a real browser, against the real server (uvicorn, PostgreSQL,
channels-redis): a player waits on the lobby page on a phone, the tournament's first round
is drawn, and over /ws/notices/ the bell shows one unread notice: "your next table is
ready", linking to the table; opening it marks it read. The settings page saves the
choices without script and offers browser push (VAPID keys set). Screenshots and axe."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.frontend.conftest import shot
from tests.frontend.test_accessibility import axe_clean
from tests.live.harness import session_cookie
from tournaments.clubs.members import create_club
from tournaments.models import Table
from tournaments.notices.models import NoticeSettings
from tournaments.notices.push import generate_keys
from tournaments.services import create_tournament, register, start_tournament

pytestmark = [pytest.mark.slow]

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def env(env: dict[str, str]) -> dict[str, str]:
    public, private = generate_keys()
    return {**env, "VAPID_PUBLIC_KEY": public, "VAPID_PRIVATE_KEY": private}


@pytest.fixture
def tasks_here() -> Iterator[None]:
    """The round's notices are made by the test process's own tasks (no worker needed)."""
    from project.celery import app

    saved = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = saved


def test_the_bell_shows_an_unread_next_table(open_page: Any, server: Any, tasks_here: None) -> None:
    users = get_user_model()
    organiser = users.objects.create(username="organiser")
    club = create_club("Club", "club", organiser)
    stages = [{"name": "swiss", "format": "swiss", "params": {"rounds": 1, "table_size": 2}}]
    tournament = create_tournament(club.pk, organiser, name="Jueves", ruleset="dudo", stages=stages)
    for name in ("ana", "beto"):
        session_cookie(name)
        register(tournament.pk, organiser, name=name, user=users.objects.get(username=name))

    page = open_page("/", "ana", watch=True, viewport=PHONE)
    expect(page.locator("#notices-button")).to_be_visible()
    expect(page.locator("#notices-count")).to_be_hidden()
    page.wait_for_selector("#notices[data-live='1']", state="attached")  # the bell's socket is open

    start_tournament(tournament.pk, organiser)
    table = Table.objects.get(round__tournament=tournament)

    count = page.locator("#notices-count")
    expect(count).to_have_text("1", timeout=15_000)
    shot(page, "notices-bell-unread")
    page.locator("#notices-button").click()
    expect(page.locator("#notices-menu")).to_be_visible()
    item = page.locator("#notices-list li.unread")
    expect(item).to_have_count(1)
    expect(item).to_contain_text("Your next table is ready")
    expect(item).to_contain_text("Jueves, round 1")
    expect(item.locator("a")).to_have_attribute("href", f"/matches/{table.match_id}/")
    expect(page.locator("#notices-button")).to_have_attribute("aria-expanded", "true")
    shot(page, "notices-menu-open")
    axe_clean(page, "notices-menu-open")
    expect(count).to_be_hidden()  # read once seen


def test_the_notice_settings_page(open_page: Any, server: Any) -> None:
    session_cookie("caro")
    page = open_page("/me/notices/", "caro", watch=True, viewport=PHONE, locale="es")
    expect(page.locator("h1")).to_have_text("Ajustes de avisos")
    expect(page.locator("#push-enable")).to_be_visible()
    box = page.locator("#table-ready-email")
    expect(box).to_be_checked()
    box.uncheck()
    page.locator("#notice-settings-save").click()
    expect(page.locator("#notice-settings-saved")).to_be_visible()
    expect(page.locator("#table-ready-email")).not_to_be_checked()
    shot(page, "notices-settings-es")
    axe_clean(page, "notices-settings-es")
    choices = NoticeSettings.objects.get(user__username="caro").choices
    assert choices["table-ready"] == {"in_app": True, "email": False, "push": True}
    assert choices["your-turn"] == {"in_app": False, "email": False, "push": True}
