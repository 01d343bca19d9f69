"""The pages around play, walked as a new user walks them, their consoles watched (no
console error on any page): sign up, my matches, the clubs and a club, log out and in
again; and the 403 and 500 pages in the site's layout and language, at 1280 × 800 and
390 × 844, in English and Spanish.

The 403 and 500 pages are Django's own handlers' answers (`permission_denied`,
`server_error`, rendered here in each language as the server renders them): no page of the
site refuses or fails on purpose, so Chromium receives that answer for an address of the
server (`page.route`), and everything else the page loads, styles and scripts, comes from the
real server."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.test import RequestFactory
from django.utils import translation
from django.views import defaults

from tests.frontend.conftest import ConsoleWatch, shot, watch_console
from tests.live.harness import session_cookie
from tests.test_foundation.helpers import Server
from tournaments import services
from tournaments.clubs import members as club_members

pytestmark = [pytest.mark.slow]

VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
WALKS = [pytest.param("desktop", "en", id="desktop-en"), pytest.param("phone", "es", id="phone-es")]
WORDS = {
    "en": {"clubs": "Clubs", "403": "Not allowed", "500": "Something went wrong"},
    "es": {"clubs": "Clubes", "403": "No permitido", "500": "Algo salió mal"},
}
BACK = {"en": "Back to the lobby", "es": "Volver al inicio"}


def _fits(page: Any) -> None:
    """Nothing runs off the side of the screen (no sideways scrolling)."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], (width, page.viewport_size)


@pytest.mark.parametrize(("size", "locale"), WALKS)
def test_a_new_user_walks_signup_profile_clubs_and_login(
    browser: Any, server: Server, console_watch: ConsoleWatch, size: str, locale: str
) -> None:
    session_cookie("dora")
    owner = get_user_model().objects.get(username="dora")
    club = club_members.create_club("Club del Puerto", "puerto", owner)
    services.create_tournament(club.pk, owner, name="Copa del Puerto", ruleset="dudo")
    context = browser.new_context(locale=locale, viewport=VIEWPORTS[size])
    context.add_cookies([{"name": "django_language", "value": locale, "url": server.url}])
    page = console_watch.watch(context.new_page())
    page.set_default_timeout(10_000)
    name, password = f"walker-{size}", "a-long-enough-pass-9"
    try:
        page.goto(server.url + "/signup/")
        assert page.get_attribute("html", "lang") == locale
        shot(page, f"signup-{locale}-{size}")
        page.fill("#id_username", name)
        page.fill("#id_email", f"{name}@example.org")
        page.fill("#id_password1", password)
        page.fill("#id_password2", password)
        page.click("form.stack button[type=submit]")
        page.wait_for_url("**/me/")
        page.wait_for_selector("#matches[data-loaded]")
        assert page.inner_text("h1") == name
        _fits(page)
        shot(page, f"profile-{locale}-{size}")

        page.goto(server.url + "/clubs/")
        page.wait_for_selector('#clubs:not([aria-busy]) a[href^="/clubs/"]')
        assert page.inner_text("h1") == WORDS[locale]["clubs"]
        shot(page, f"clubs-{locale}-{size}")
        page.click(f'#clubs a[href="/clubs/{club.pk}/"]')
        page.wait_for_selector("#tournaments li[data-tournament]")
        assert page.inner_text("#club-name") == "Club del Puerto"
        assert "Copa del Puerto" in page.inner_text("#tournaments")
        _fits(page)
        shot(page, f"club-{locale}-{size}")

        context.clear_cookies()  # logged out
        context.add_cookies([{"name": "django_language", "value": locale, "url": server.url}])
        page.goto(server.url + "/login/")
        shot(page, f"login-{locale}-{size}")
        page.fill("#id_username", name)
        page.fill("#id_password", password)
        page.click("form.stack button[type=submit]")
        page.wait_for_load_state("load")
        assert page.url.startswith(server.url) and "/login/" not in page.url
        page.goto(server.url + "/me/")
        page.wait_for_selector("#matches[data-loaded]")
        assert page.inner_text("h1") == name
    finally:
        context.close()


def _answer(status: int, locale: str) -> str:
    """What Django's handler answers for that status, in `locale` (the language middleware
    has chosen it by the time a handler runs)."""
    request = RequestFactory().get("/somewhere")
    request.user = AnonymousUser()
    with translation.override(locale):
        response = (
            defaults.permission_denied(request, PermissionDenied())
            if status == 403
            else defaults.server_error(request)
        )
    assert response.status_code == status
    return response.content.decode()


@pytest.mark.parametrize("status", [403, 500])
def test_the_403_and_500_pages_in_the_sites_layout_and_language(
    browser: Any, server: Server, status: int
) -> None:
    for locale in ("en", "es"):
        body = _answer(status, locale)
        for size, viewport in VIEWPORTS.items():
            _walk_error_page(browser, server, status, body, locale, size, viewport)


def _walk_error_page(
    browser: Any, server: Server, status: int, body: str, locale: str, size: str, viewport: dict[str, int]
) -> None:
    context = browser.new_context(locale=locale, viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(10_000)
    path = f"/error-{status}"
    # everything the page said but its own status (which Chromium logs as a failed load)
    said = watch_console(page)
    page.route(
        server.url + path,
        lambda route: route.fulfill(status=status, content_type="text/html; charset=utf-8", body=body),
    )
    try:
        response = page.goto(server.url + path)
        assert response is not None and response.status == status
        page.wait_for_load_state("networkidle")
        assert page.get_attribute("html", "lang") == locale
        assert page.locator(f'.error-page[data-status="{status}"]').count() == 1
        assert page.inner_text(".error-page h1") == WORDS[locale][str(status)]
        assert page.locator("header.site-header").is_visible()
        styled = page.evaluate("getComputedStyle(document.querySelector('.error-page .button')).display")
        assert styled != "inline", "the site's styles are loaded"
        _fits(page)
        shot(page, f"error-{status}-{locale}-{size}")
        page.click(f".error-page a:has-text('{BACK[locale]}')", no_wait_after=True)
        page.wait_for_url(server.url + "/", timeout=30_000)
        page.wait_for_selector("#lobby[data-loaded]")
        unexpected = [line for line in said if not line.endswith((f"{path})", f" {server.url}{path}"))]
        assert unexpected == [], unexpected
    finally:
        context.close()
