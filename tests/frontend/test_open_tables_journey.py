"""Play now, on a phone (390×844), on the default install (`make run`: SQLite, the in-memory
channel layer, in-process timers and bots): Ana opens a casual Dudo table for three, Beto
takes a seat from the lobby (his lobby shows the table without a reload, over the socket),
Ana fills the third seat with a bot, the table starts by itself, the two play the match to
its end against the bot (which moves server-side), and Ana's rematch opens the same table
again, which Beto joins from his end screen and which starts. Screenshots and axe on each
page of the journey."""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import ConsoleWatch, shot
from tests.frontend.test_accessibility import axe_clean
from tests.test_foundation.helpers import PYTHON, ROOT, Server, clean_env, serve
from tests.test_foundation.installs import migrate_install

pytestmark = [pytest.mark.slow]

PASSWORD = "a-long-pass-phrase-28"
PHONE = {"width": 390, "height": 844}
POLL_MS = 200
# A move that the table overtook (the round ended, the turn passed) fails within this, not
# the page's 15 s default: the loop looks again.
MOVE_MS = 2_000


@pytest.fixture(scope="module")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    data_dir = tmp_path_factory.mktemp("open-tables")
    env = clean_env(data_dir, CACHO_BOT_THINK_MS="100")  # no DATABASE_URL, no REDIS_URL
    checked = subprocess.run(
        [PYTHON, "-c", "import sys; from project.config import main; sys.exit(main())"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert "embedded mode" in checked.stdout and "SQLite" in checked.stdout, checked.stdout
    migrate_install(env)
    with serve(env, data_dir) as server:
        yield server
        assert server.process.poll() is None, server.output()


@pytest.fixture
def phone(browser: Any, embedded: Server, console_watch: ConsoleWatch) -> Iterator[Any]:
    contexts: list[Any] = []

    def open_(path: str) -> Any:
        context = browser.new_context(locale="en", viewport=PHONE)
        contexts.append(context)
        context.add_cookies([{"name": "django_language", "value": "en", "url": embedded.url}])
        page = console_watch.watch(context.new_page())
        page.set_default_timeout(15_000)
        page.set_default_navigation_timeout(30_000)
        page.goto(embedded.url + path)
        return page

    yield open_
    for context in contexts:
        context.close()


def _sign_up(page: Any, name: str) -> None:
    page.fill("#id_username", name)
    page.fill("#id_email", f"{name}@example.org")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("form.stack button[type=submit]")
    page.wait_for_url(re.compile(r"/me/$"))


def _play_on(page: Any) -> bool:
    """One move where this player is on turn: dudo when it may be called, else the least
    bid; then the page's next state, so that the next look sees no button of the move just
    made. False when the page shows nothing to do."""
    version = page.get_attribute("#match", "data-version")
    if page.locator("#do-dudo:not([disabled])").count():
        page.click("#do-dudo", timeout=MOVE_MS)
    elif page.locator("#do-bid:not([disabled])").count():
        face = page.eval_on_selector("input[name=face]:not([disabled])", "e => e.value")
        page.check(f"#face-{face}", timeout=MOVE_MS)
        page.click("#do-bid", timeout=MOVE_MS)
    else:
        return False
    expect(page.locator("#match")).not_to_have_attribute("data-version", version or "", timeout=MOVE_MS)
    return True


def _play_to_the_end(pages: list[Any], limit_seconds: float = 240) -> None:
    deadline = time.monotonic() + limit_seconds
    while time.monotonic() < deadline:
        if all(p.locator("#end-screen:not([hidden])").count() for p in pages):
            return
        moved = False
        for page in pages:
            try:
                moved = _play_on(page) or moved
            except Exception:  # the button went away as the table moved on: look again
                continue
        if not moved:
            pages[0].wait_for_timeout(POLL_MS)
    raise AssertionError("the match did not end")


def test_a_casual_dudo_table_with_a_bot_played_to_its_end_then_a_rematch(phone: Any) -> None:
    ana, beto = phone("/signup/"), phone("/signup/")
    _sign_up(ana, "ana")
    _sign_up(beto, "beto")
    base = ana.url.replace("/me/", "")

    # Beto waits in the lobby; Ana opens a casual Dudo table for three
    beto.goto(base + "/")
    beto.wait_for_selector("#open-tables[data-loaded]")
    ana.goto(base + "/")
    ana.click("#new-table")
    ana.wait_for_selector("#t-ruleset option[value=dudo]", state="attached")
    ana.select_option("#t-ruleset", "dudo")
    ana.select_option("#t-size", "3")
    ana.fill("#t-turn", "60")
    shot(ana, "open-new-table-phone")
    axe_clean(ana, "open-new-table-phone")
    ana.click("#t-open")
    ana.wait_for_url(re.compile(r"/tables/\d+/$"))
    table_id = re.search(r"/tables/(\d+)/$", ana.url)[1]  # type: ignore[index]
    ana.wait_for_selector("#open-table[data-status=open] #ot-start[disabled]")

    # the table reaches Beto's lobby over the socket; he takes a seat there
    sit = beto.locator(f'[data-open-table="{table_id}"] [data-sit]')
    sit.wait_for()
    shot(beto, "open-lobby-phone")
    axe_clean(beto, "open-lobby-phone")
    sit.click()
    beto.wait_for_url(re.compile(rf"/tables/{table_id}/$"))
    beto.wait_for_selector('#ot-seats li[data-seat="1"]:has-text("beto")')
    ana.wait_for_selector('#ot-seats li[data-seat="1"]:has-text("beto")')  # Ana's page, live
    shot(ana, "open-table-host-phone")
    axe_clean(ana, "open-table-host-phone")

    # Ana fills the third seat with a bot: full, the table starts and both go to the match
    ana.select_option("#ot-strength", "reasoning")
    match_loads: list[str] = []  # the host's page, told twice (its answer, the socket), goes once
    ana.on(
        "request",
        lambda request: (
            match_loads.append(request.url)
            if request.resource_type == "document" and "/matches/" in request.url
            else None
        ),
    )
    ana.click("#ot-bots")
    for page in (ana, beto):
        page.wait_for_url(re.compile(r"/matches/[^/]+/$"))
        page.wait_for_selector("#match[data-version]")
    assert ana.url == beto.url
    assert match_loads == [ana.url], match_loads
    ana.wait_for_selector("#open-table-box:not([hidden]):has-text('Thinking bot')")
    shot(beto, "open-match-phone")
    axe_clean(beto, "open-match-phone")

    _play_to_the_end([ana, beto])
    ana.wait_for_selector("#rematch")
    shot(ana, "open-match-end-phone")
    axe_clean(ana, "open-match-end-phone")

    # Ana's rematch: the same table again, Beto invited; he joins from his end screen
    ana.click("#rematch")
    ana.wait_for_url(re.compile(r"/tables/\d+/$"))
    rematch_id = re.search(r"/tables/(\d+)/$", ana.url)[1]  # type: ignore[index]
    assert rematch_id != table_id
    ana.wait_for_selector('#ot-seats li[data-bot="reasoning"]')
    beto.wait_for_selector("#rematch-join", timeout=20_000)
    beto.click("#rematch-join")
    beto.wait_for_url(re.compile(rf"/tables/{rematch_id}/$"))
    beto.click("#ot-sit")
    for page in (ana, beto):
        page.wait_for_url(re.compile(r"/matches/[^/]+/$"))
        page.wait_for_selector("#match[data-version]")
    shot(beto, "open-rematch-phone")
