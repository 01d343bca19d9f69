"""Real-browser tests: Debian's Chromium driven by Playwright against uvicorn + PostgreSQL +
Redis (+ a Celery worker where timers matter), reusing the live-play fixtures.

"No console error on any page": `watch_console(page)` records what a page says went wrong
(console errors, uncaught exceptions, HTTP error answers); `open_page(..., watch=True)`
watches a page from its first request and fails the test at its end if it said anything;
the `console_watch` fixture does the same for pages a test opens itself
(`console_watch.watch(page)` before its `goto`)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests import browser_loop, needs
from tests.live.conftest import env, server, server_forks, services, worker  # noqa: F401  (fixtures)
from tests.live.harness import session_cookie
from tests.test_foundation.helpers import Server

# Debian's headless shell (package chromium-headless-shell: the headless mode Playwright
# itself launches by default) where installed, Debian's Chromium else: the full browser's
# headless mode also runs the browser's own UI, and its processes spent about a third more
# CPU in the browser tests (docs/testing.md).
CHROMIUMS = ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium")
CHROMIUM = next((path for path in CHROMIUMS if os.path.exists(path)), CHROMIUMS[-1])
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
# Browser UI a headless test never shows: every window (each context's page) would start a
# renderer of its own for the omnibox's suggestion popups, which costs a quarter of the
# browser tests' CPU (docs/testing.md).
UNSHOWN_UI_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One Chromium per test process (per pytest-xdist worker), started by the first test
    that asks for it and shared by the rest (each opens contexts of its own). Playwright's
    event loop is set aside for the tests that do not use it (tests/browser_loop.py)."""
    if not os.path.exists(CHROMIUM):
        needs.missing("Chromium is not installed (deploy/dev/test.sh installs it as root)")
    from playwright.sync_api import sync_playwright

    playwright = sync_playwright().start()
    loop = asyncio.get_running_loop()
    try:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, args=[*ARGS, disabled_features(playwright.chromium)]
        )
        try:
            yield launched
        finally:
            with browser_loop.in_place(loop):
                launched.close()
    finally:
        with browser_loop.in_place(loop):
            playwright.stop()


def disabled_features(browser_type: Any) -> str:
    """`--disable-features` with Playwright's own list and `UNSHOWN_UI_FEATURES`: Chromium
    takes the last of two such switches whole, so Playwright's list (its launch defaults)
    is read from a browser it launched, by the DevTools protocol's command line (which
    answers under `--enable-automation` only)."""
    probe = browser_type.launch(executable_path=CHROMIUM, args=[*ARGS, "--enable-automation"])
    try:
        switches = probe.new_browser_cdp_session().send("Browser.getBrowserCommandLine")["arguments"]
    finally:
        probe.close()
    prefix = "--disable-features="
    own = [
        f for switch in switches if switch.startswith(prefix) for f in switch[len(prefix) :].split(",") if f
    ]
    return prefix + ",".join(dict.fromkeys([*own, *UNSHOWN_UI_FEATURES]))


def watch_console(page: Any, errors: list[str] | None = None, *, responses: bool = True) -> list[str]:
    """Record into `errors` (a new list unless given) every console error, uncaught
    exception and, with `responses`, every HTTP answer of 400 or more the page receives
    from now on (a test that expects a refusal leaves `responses` off)."""
    said = [] if errors is None else errors
    page.on(
        "console",
        lambda message: (
            said.append(f"console: {message.text} ({message.location.get('url', '')})")
            if message.type == "error"
            else None
        ),
    )
    page.on("pageerror", lambda error: said.append(f"exception: {error}"))
    if responses:
        page.on("response", lambda r: said.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    return said


@dataclass
class ConsoleWatch:
    """The pages a test watches, and what they said; `check` fails on anything."""

    errors: list[str] = field(default_factory=list)

    def watch(self, page: Any, *, responses: bool = True) -> Any:
        watch_console(page, self.errors, responses=responses)
        return page

    def check(self) -> None:
        assert self.errors == [], "a page said something went wrong:\n" + "\n".join(self.errors)


@pytest.fixture
def console_watch() -> Iterator[ConsoleWatch]:
    """Watch pages with `console_watch.watch(page)`; the test fails at its end if one of
    them logged an error, threw, or received an HTTP error."""
    watch = ConsoleWatch()
    yield watch
    watch.check()


@pytest.fixture
def open_page(browser: Any, server: Server) -> Iterator[Callable[..., Any]]:  # noqa: F811
    """`open_page(path, user=None, locale="en", watch=False, viewport=None)`: a page in its
    own context, logged in as `user`; with `watch` its console and answers are watched from
    its first request (`watch_console`) and the test fails at its end if it said anything."""
    contexts: list[Any] = []
    watched = ConsoleWatch()

    def open_(
        path: str,
        user: str | None = None,
        *,
        locale: str = "en",
        staff: bool = False,
        watch: bool = False,
        viewport: dict[str, int] | None = None,
    ) -> Any:
        context = browser.new_context(locale=locale, viewport=viewport or {"width": 1100, "height": 900})
        contexts.append(context)
        context.add_cookies([{"name": "django_language", "value": locale, "url": server.url}])
        if user is not None:
            name, value = session_cookie(user, staff=staff)["Cookie"].split("=", 1)
            context.add_cookies([{"name": name, "value": value, "url": server.url}])
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.set_default_navigation_timeout(30_000)  # a page load on a busy 2-core machine
        if watch:
            watched.watch(page)
        page.goto(server.url + path)
        return page

    yield open_
    for context in contexts:
        context.close()
    watched.check()


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
