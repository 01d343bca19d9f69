"""`make run` on a fresh clone, in a real browser: a server started as deploy/dev/run.sh starts
it (a new CACHO_DATA_DIR, neither DATABASE_URL nor REDIS_URL, `migrate`, `seed_demo`, uvicorn
with CACHO_DEMO_BOTS=1: SQLite, the in-memory channel layer, in-process timers) shows the demo's
finished tournament with its exports, the leaderboard and a bot's rating, and the ruled dispute
to the demo referee; and two players who sign up there make a club, and watch a live demo
table whose bots' moves arrive over the socket without a reload.

Everything is reached as a visitor reaches it, through the pages' own links: the test process
writes nothing (its database, if any, is not the server's), so it needs neither PostgreSQL nor
Redis and runs in every run of the suite."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import ConsoleWatch, shot
from tests.live.harness import is_event
from tests.test_foundation.helpers import PYTHON, ROOT, Server, clean_env, manage, serve
from tournaments.services import demo_seed

# One worker runs the module: its journeys share one server (`embedded`), set up once.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("embedded-journeys")]

PASSWORD = "a-long-pass-phrase-28"


@pytest.fixture(scope="module")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """deploy/dev/run.sh's steps, in its order, on a data directory of its own."""
    data_dir = tmp_path_factory.mktemp("embedded")
    env = clean_env(data_dir)  # no DATABASE_URL, no REDIS_URL: the embedded defaults
    checked = subprocess.run(
        [PYTHON, "-c", "import sys; from project.config import main; sys.exit(main())"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "embedded mode" in checked.stdout and "SQLite" in checked.stdout, checked.stdout
    for command in (("migrate", "--noinput"), ("seed_demo",)):
        done = manage(env, *command)
        assert done.returncode == 0, done.stdout + done.stderr
    with serve(dict(env, CACHO_DEMO_BOTS="1"), data_dir) as server:
        yield server
        assert server.process.poll() is None, server.output()


@pytest.fixture
def visit(browser: Any, embedded: Server, console_watch: ConsoleWatch) -> Iterator[Any]:
    """`visit(path)`: a page of a new visitor (its own context), watched for console errors
    and HTTP error answers from its first request."""
    contexts: list[Any] = []

    def open_(path: str) -> Any:
        context = browser.new_context(locale="en", viewport={"width": 1100, "height": 900})
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


def test_the_finished_demo_tournament_its_podium_and_exports(visit: Any) -> None:
    page = visit("/clubs/")
    page.click('#clubs a:text-is("Club Demo")')
    page.click(f'#tournaments a:text-is("{demo_seed.FINISHED}")')
    page.wait_for_selector("#t-final:not([hidden])")
    assert page.inner_text("#t-name") == demo_seed.FINISHED
    podium = page.locator("#t-podium li")
    assert podium.count() >= 3 and "Bot" in podium.first.inner_text()
    assert page.locator("#t-ranking tbody tr").count() == 8
    winner = page.locator("#t-ranking tbody tr").first.inner_text()
    shot(page, "embedded-finished-tournament")

    links = dict(page.eval_on_selector_all(".exports a", "links => links.map(a => [a.textContent, a.href])"))
    assert set(links) == {"CSV", "XLSX", "JSON", "Print"}, links
    answers = {kind: page.request.get(href) for kind, href in links.items()}
    assert {kind: answer.status for kind, answer in answers.items()} == dict.fromkeys(links, 200)
    kinds = {kind: answer.headers["content-type"] for kind, answer in answers.items()}
    assert kinds["CSV"].startswith("text/csv")
    assert kinds["XLSX"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    assert kinds["JSON"].startswith("application/json") and kinds["Print"].startswith("text/html")
    for kind, extension in (("CSV", "csv"), ("XLSX", "xlsx")):
        disposition = answers[kind].headers["content-disposition"]
        assert disposition.startswith("attachment;") and disposition.endswith(f'.{extension}"'), disposition

    rows = list(csv.reader(io.StringIO(answers["CSV"].body().decode("utf-8-sig"))))
    assert rows[0][0] == "Place" and len(rows) == 1 + 8
    assert rows[1][0] == "1" and rows[1][1] in winner  # the CSV's winner is the page's
    book = openpyxl.load_workbook(io.BytesIO(answers["XLSX"].body()))
    names = [row[1] for row in book.worksheets[0].iter_rows(min_row=2, values_only=True)]
    assert sorted(names) == sorted(row[1] for row in rows[1:])
    exported = json.loads(answers["JSON"].body())
    assert exported["tournament"]["name"] == demo_seed.FINISHED
    assert exported["tournament"]["status"] == "finished"
    assert [line["name"] for line in exported["final_ranking"]] == [row[1] for row in rows[1:]]

    # the browser downloads the CSV from its link, as a user's click does
    with page.expect_download() as downloaded:
        page.click('.exports a:text-is("CSV")')
    assert downloaded.value.suggested_filename.endswith(".csv")
    assert Path(downloaded.value.path()).read_bytes() == answers["CSV"].body()

    page.click('.exports a:text-is("Print")')
    page.wait_for_url(re.compile(r"/standings/print$"))
    assert page.inner_text("h1") == demo_seed.FINISHED
    assert rows[1][1] in page.inner_text("table.ranking")
    shot(page, "embedded-exports-print")


def test_the_leaderboard_rates_the_bots_and_a_bot_shows_its_rating(visit: Any) -> None:
    board = visit("/ratings/")
    listed = {row.get_attribute("data-username") for row in board.locator("#leaderboard tbody tr").all()}
    assert {f"bot-dudo-{i:02d}" for i in range(1, 9)} <= listed
    row = board.locator('#leaderboard tbody tr[data-username="bot-dudo-01"]')
    rating = row.locator("td").nth(2).inner_text().split()[0]
    float(rating)  # a number, as "1234.5"
    shot(board, "embedded-leaderboard")

    row.locator('a[href="/players/bot-dudo-01/"]').click()
    board.wait_for_url(re.compile(r"/players/bot-dudo-01/$"))
    shown = board.locator('#player-ratings .rating[data-family="dudo"]')
    assert shown.locator(".rating-value").inner_text() == rating
    # one point of the history per rated table of the finished tournament
    assert shown.locator("circle.point").count() >= 2
    shot(board, "embedded-bot")


def test_the_demo_referee_opens_the_ruled_dispute(visit: Any) -> None:
    page = visit("/login/")
    page.fill("input[name=username]", demo_seed.REFEREE)
    page.fill("input[name=password]", demo_seed.REFEREE_PASSWORD)
    page.click("form.stack button[type=submit]")
    page.wait_for_url(lambda url: "/login/" not in url)
    page.click('#site-nav a[href="/disputes/"]')
    page.wait_for_selector("#closed[data-loaded]:not([hidden])")
    ruled = page.locator("#c-rows a[data-open]")
    assert ruled.count() == 1
    ruled.click()
    page.wait_for_url(re.compile(r"/disputes/\d+/$"))
    page.wait_for_selector("#tm[data-loaded]")  # the review: the match step by step
    assert not page.locator("#referee").is_hidden()
    assert page.locator("#d-trail li").count() == 3
    assert "The bid stands" in page.inner_text("#d-trail")
    shot(page, "embedded-ruled-dispute")


def _sign_up(page: Any, name: str) -> None:
    page.fill("#id_username", name)
    page.fill("#id_email", f"{name}@example.org")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("form.stack button[type=submit]")
    page.wait_for_url(re.compile(r"/me/$"))
    assert page.inner_text("h1") == name


def test_two_players_sign_up_make_a_club_and_watch_the_bots_play_live(visit: Any) -> None:
    ana, beto = visit("/signup/"), visit("/signup/")
    _sign_up(ana, "ana")
    _sign_up(beto, "beto")

    # Ana makes a club and adds Beto as a player
    ana.goto(ana.url.replace("/me/", "/clubs/new/"))
    ana.wait_for_selector("#new-club[data-ready]")
    ana.fill("#nc-name", "Club de Ana")
    ana.click("#nc-submit")
    ana.wait_for_selector("#club-manage[data-ready] #cm-body:not([hidden])")
    club = re.search(r"/clubs/(\d+)/manage/$", ana.url)
    assert club is not None, ana.url
    ana.fill("#cm-who", "beto")
    ana.select_option("#cm-role", "player")
    ana.click("#cm-add-submit")
    ana.wait_for_selector('#cm-members tr[data-member="beto"] input[data-role="player"]:checked')
    shot(ana, "embedded-club")

    # Beto finds it among the clubs, then watches the table on TV in the lobby
    beto.goto(beto.url.replace("/me/", "/clubs/"))
    beto.wait_for_selector(f'#clubs a[href="/clubs/{club[1]}/"]:text-is("Club de Ana")')
    frames: list[dict[str, Any]] = []  # what the server sends Beto's page over its sockets
    beto.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(json.loads(data))))
    beto.goto(beto.url.replace("/clubs/", "/"))
    beto.wait_for_selector("#lobby[data-loaded]")
    running = beto.inner_text("#lobby-running")
    assert demo_seed.LIVE_DUDO in running and demo_seed.LIVE_ALALAY in running
    beto.click("#lobby-tv .table-card.tv a.button")
    beto.wait_for_url(re.compile(r"/matches/[^/]+/$"))
    beto.wait_for_selector('#conn[data-state="connected"]')
    beto.wait_for_selector("#match[data-version] #game-log[data-version]")
    loads: list[str] = []  # the page's own loads from now on: a reload would be one
    beto.on("framenavigated", lambda frame: loads.append(frame.url) if frame == beto.main_frame else None)
    before = beto.get_attribute("#match", "data-version")
    logged = beto.get_attribute("#game-log", "data-version")
    # a bot's next move: an event over the socket, the table and its game log drawn again
    expect(beto.locator("#match")).not_to_have_attribute("data-version", before, timeout=15_000)
    expect(beto.locator("#game-log")).not_to_have_attribute("data-version", logged, timeout=15_000)
    assert int(beto.get_attribute("#match", "data-version")) > int(before)
    assert loads == []
    moves = [frame for frame in frames if is_event(frame) and frame["v"] > int(before)]
    assert moves, frames
    shot(beto, "embedded-live-table")
