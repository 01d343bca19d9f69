"""Real-browser tests: Debian's Chromium driven by Playwright against uvicorn + PostgreSQL +
Redis (+ a Celery worker where timers matter), reusing the live-play fixtures."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.live.conftest import env, server, services, worker  # noqa: F401  (fixtures)
from tests.live.harness import session_cookie
from tests.test_foundation.helpers import Server

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).parent / "artifacts"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium per test module. Playwright's sync API runs an event loop in the test
    thread while it lives, so it is stopped at the end of the module: later tests that run
    their own loops (tests/live) must not find one running. Meanwhile the ORM calls of these
    tests are plain synchronous set-up code, which Django's async-safety guard would refuse."""
    if not os.path.exists(CHROMIUM):
        pytest.skip("Chromium is not installed (deploy/dev/test.sh installs it as root)")
    from playwright.sync_api import sync_playwright

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            yield launched
            launched.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def open_page(browser: Any, server: Server) -> Iterator[Callable[..., Any]]:  # noqa: F811
    """`open_page(path, user=None, locale="en")`: a page in its own context, logged in as `user`."""
    contexts: list[Any] = []

    def open_(path: str, user: str | None = None, *, locale: str = "en", staff: bool = False) -> Any:
        context = browser.new_context(locale=locale, viewport={"width": 1100, "height": 900})
        contexts.append(context)
        context.add_cookies([{"name": "django_language", "value": locale, "url": server.url}])
        if user is not None:
            name, value = session_cookie(user, staff=staff)["Cookie"].split("=", 1)
            context.add_cookies([{"name": name, "value": value, "url": server.url}])
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto(server.url + path)
        return page

    yield open_
    for context in contexts:
        context.close()


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
