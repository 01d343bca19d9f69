"""The lobby, "My matches" (with its filters), a player's page and the error pages, in a real
browser at 1280 × 800 and 390 × 844; the error pages' templates also without a browser."""

from __future__ import annotations

import os
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import RequestFactory
from playwright.sync_api import expect

from cacho.models import Match
from cacho.services import matches as match_service
from cacho.services import players
from tests.cacho.conftest import settle_after_commit_work
from tests.frontend.conftest import shot
from tests.live.harness import services_env, session_cookie
from tests.tournaments.helpers import club_with_organiser, play_bidding_match, register_bots
from tournaments.models import Table, Tournament
from tournaments.services import create_tournament, register, start_tournament

VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
SWISS = [{"name": "swiss", "format": "swiss", "params": {"rounds": 1, "table_size": 3}}]


# A seat as the match's events name an account's: p<N>.
PLAYER_ID = re.compile(r"\bp\d+\b")


def _user(name: str) -> Any:
    session_cookie(name)
    return get_user_model().objects.get(username=name)


def _casual(names: tuple[str, ...], rng: random.Random, *, finish: bool) -> Match:
    """A casual table as the platform seats accounts: each seat named by its player id."""
    users = [_user(name) for name in names]
    match = match_service.create_match("dudo", [players.seat_name(user) for user in users])
    for index, user in enumerate(users):
        match_service.take_seat(match.pk, index, user)
    if finish:
        play_bidding_match(match.pk, rng)
    return match


@pytest.fixture
def env(services: None, tmp_path: Path, committed_db: None) -> dict[str, str]:
    """The live tests' server environment with DEBUG off: the error pages are the site's
    own, not Django's debug pages."""
    import redis

    redis.Redis.from_url(os.environ["REDIS_URL"]).flushdb()
    return services_env(tmp_path, DEBUG="false")


@pytest.fixture
def tasks_in_process(settings: Any) -> Iterator[None]:
    """The tournament's result and draw tasks run in this process, as the set-up plays its
    matches (no worker needed: the browser only reads). No turn timer: an eager Celery
    ignores an ETA, so a timer task would run at once, find its turn not yet due and
    schedule itself again, deeper each time."""
    from project.celery import app

    settings.CACHO_TIMERS = "off"

    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved


def _evening() -> dict[str, Any]:
    """Ana played a one-round tournament to the end and a casual match, and plays another one
    with Beto and Caro now; a second tournament takes registrations."""
    rng = random.Random(7)
    club, owner = club_with_organiser(lambda name: _user(name), "lobby")
    ana = _user("ana")
    copa = create_tournament(club.pk, owner, name="Copa del Lobby", ruleset="dudo", stages=SWISS)
    register(copa.pk, ana, name="Ana", user=ana)
    register_bots(copa, owner, 2)
    start_tournament(copa.pk, owner)
    play_bidding_match(Table.objects.get(round__tournament=copa).match_id, rng)
    create_tournament(club.pk, owner, name="Copa de Verano", ruleset="dudo", stages=SWISS)
    _casual(("ana", "beto"), rng, finish=True)
    live = _casual(("ana", "beto", "caro"), rng, finish=False)
    settle_after_commit_work()
    copa.refresh_from_db()
    assert copa.status == Tournament.FINISHED
    return {"copa": copa, "live": live}


def _watch_console(page: Any) -> list[str]:
    errors: list[str] = []
    page.on(
        "console",
        lambda message: (
            errors.append(f"{message.text} {message.location}") if message.type == "error" else None
        ),
    )
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    return errors


def _rows(page: Any) -> int:
    return page.locator("#matches-list li.match-row").count()


def _filter(page: Any, name: str, value: str) -> None:
    page.select_option(f'#match-filters select[name="{name}"]', value)
    wanted = page.evaluate(
        "() => new URLSearchParams([...new FormData(document.getElementById('match-filters'))]"
        ".filter(([, v]) => v)).toString()"
    )
    expect(page.locator("#matches")).to_have_attribute("data-query", wanted)


@pytest.mark.slow
@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_lobby_my_matches_a_profile_and_the_404_page(
    open_page: Any, tasks_in_process: None, viewport: str
) -> None:
    evening = _evening()
    live = str(evening["live"].pk)
    page = open_page("/", "ana")
    page.set_viewport_size(VIEWPORTS[viewport])
    errors = _watch_console(page)
    page.reload()

    # the lobby: the TV (the only live table), Ana's own match, the tournaments; no server internals
    page.wait_for_selector("#lobby[data-loaded]")
    assert page.get_attribute("#lobby-tv .table-card.tv", "data-match") == live
    assert page.get_attribute("#lobby-next [data-next-match]", "data-next-match") == live
    assert page.locator("#lobby-tv .table-players li").count() == 3
    assert "Copa de Verano" in page.inner_text("#lobby-coming")
    text = page.inner_text("main")
    for internal in ("Channel layer", "Database", "healthz"):
        assert internal not in text
    # seats named by player ids in the events read as their players, the one on turn too
    assert not PLAYER_ID.search(page.inner_text("#lobby-tv")), page.inner_text("#lobby-tv")
    assert not PLAYER_ID.search(page.inner_text("#lobby-next")), page.inner_text("#lobby-next")
    shot(page, f"lobby-{viewport}")

    # a name at the table leads to that player's page
    page.click('#lobby-tv a[href="/players/beto/"]')
    page.wait_for_selector("#matches[data-loaded]")
    assert page.inner_text("h1") == "beto" and _rows(page) == 2
    shot(page, f"player-beto-{viewport}")

    # my matches: opponents, placement, date, tournament; filters
    page.goto(page.url.split("/players/")[0] + "/me/")
    page.wait_for_selector("#matches[data-loaded]")
    assert _rows(page) == 3
    first = page.locator("#matches-list li.match-row").first
    assert first.get_attribute("data-status") == "live" and "beto" in first.inner_text()
    assert first.locator('a[href="/players/caro/"]').count() == 1
    assert not PLAYER_ID.search(page.inner_text("#matches-list")), page.inner_text("#matches-list")
    shot(page, f"my-matches-{viewport}")
    _filter(page, "status", "live")
    assert _rows(page) == 1
    _filter(page, "status", "")
    page.wait_for_selector(f'#match-filters option[value="{evening["copa"].pk}"]', state="attached")
    _filter(page, "tournament", str(evening["copa"].pk))
    assert _rows(page) == 1
    assert "Copa del Lobby" in page.inner_text("#matches-list")
    assert page.get_attribute("#matches-list li.match-row", "data-placement") in ("1", "2", "3")
    shot(page, f"my-matches-tournament-{viewport}")
    _filter(page, "tournament", "none")
    _filter(page, "result", "won")
    won = _rows(page)
    _filter(page, "result", "lost")
    assert won + _rows(page) == 1  # one finished casual match: won or lost
    _filter(page, "status", "live")
    assert page.inner_text("#matches-list") and _rows(page) == 0  # live: no result yet
    shot(page, f"my-matches-empty-{viewport}")

    # Ana's page: the tournament with her final place, her matches
    page.goto(page.url.split("/me/")[0] + "/players/ana/")
    page.wait_for_selector("#player-tournaments[data-loaded]")
    page.wait_for_selector("#matches[data-loaded]")
    assert "Copa del Lobby" in page.inner_text("#player-tournaments")
    assert page.locator("#player-tournaments li strong").count() == 1  # the final place
    assert _rows(page) == 3
    shot(page, f"player-ana-{viewport}")
    assert errors == [], errors

    # the site's 404 page, in its layout, for a tournament or a player that does not exist
    base = page.url.split("/players/")[0]
    for path in ("/tournaments/987654/", "/players/nobody/"):
        response = page.goto(base + path)
        assert response is not None and response.status == 404
        assert page.locator('.error-page[data-status="404"]').count() == 1
        assert page.locator("header.site-header nav").count() == 1
    shot(page, f"not-found-{viewport}")

    # the lobby in Spanish: the page's language (structure only: the lead translates)
    spanish = open_page("/", "ana", locale="es")
    spanish.set_viewport_size(VIEWPORTS[viewport])
    spanish_errors = _watch_console(spanish)
    spanish.reload()
    spanish.wait_for_selector("#lobby[data-loaded]")
    assert spanish.get_attribute("html", "lang") == "es"
    assert spanish.get_attribute("#lobby-tv .table-card.tv", "data-match") == live
    shot(spanish, f"lobby-es-{viewport}")
    assert spanish_errors == [], spanish_errors


@pytest.mark.slow
def test_the_lobby_lists_every_live_match_of_the_player_their_turn_first(
    open_page: Any, tasks_in_process: None
) -> None:
    ana = _user("ana")
    made = []
    for names in (("ana", "beto"), ("caro", "ana"), ("dora", "ana", "eva")):
        match = match_service.create_match("dudo", list(names), first_seat=0)
        match_service.take_seat(match.pk, names.index("ana"), ana)
        made.append(str(match.pk))
    settle_after_commit_work()
    on_turn, waiting, newest = made

    page = open_page("/", "ana", watch=True)
    page.wait_for_selector("#lobby[data-loaded]")
    cards = page.locator("#lobby-next [data-your-match]")
    assert [cards.nth(i).get_attribute("data-your-match") for i in range(cards.count())] == [
        on_turn,
        newest,
        waiting,
    ]
    assert cards.first.locator(".your-turn").count() == 1
    assert page.locator("#lobby-next .your-turn").count() == 1
    shot(page, "lobby-your-matches")


@pytest.mark.django_db
def test_the_error_pages_use_the_sites_layout(client: Any, settings: Any) -> None:
    from django.views import defaults

    settings.DEBUG = False
    missing = client.get("/tournaments/987654/")
    assert missing.status_code == 404 and b'data-status="404"' in missing.content
    assert b"site-header" in missing.content and b"<!DOCTYPE html>" in missing.content
    request = RequestFactory().get("/broken")
    # Django renders 500.html with an empty context: the layout must not need a request.
    failed = defaults.server_error(request)
    assert failed.status_code == 500 and b'data-status="500"' in failed.content
    assert b"site-header" in failed.content
    denied = defaults.permission_denied(request, PermissionError())
    assert denied.status_code == 403 and b'data-status="403"' in denied.content


@pytest.mark.django_db
def test_the_spanish_404_page(client: Any) -> None:
    client.cookies["django_language"] = "es"
    page = client.get("/players/nadie/")
    assert page.status_code == 404 and b'lang="es"' in page.content
