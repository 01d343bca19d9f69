"""A club's 3-evening season in the browser: the organiser creates the season from the club's
page (best 2 of 3); the evenings are played through the service layer (two with the places
entered as a scorekeeper would, one a real match whose result a referee's ruling reverses);
the season page is read again after each and shows the new standings; the top 4 are drawn
into the final from the season page in one step; the exports open with openpyxl and hold
what the page shows. Screenshots at 1280 × 800 and 390 × 844 under tests/frontend/artifacts/,
axe on the season page, and no console error."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from openpyxl import load_workbook
from playwright.sync_api import expect
from rest_framework.test import APIClient

from cacho.models import Match
from tests.frontend.conftest import ConsoleWatch, shot
from tests.frontend.test_accessibility import axe_clean
from tests.frontend.viewing import DESKTOP, PHONE
from tests.live.harness import session_cookie
from tests.test_foundation.helpers import Server
from tests.tournaments.helpers import club_with_organiser, play_bidding_match
from tests.tournaments.seasons.helpers import evening, one_table
from tournaments.models import Entry, Table, Tournament
from tournaments.seasons.models import Season, SeasonLine
from tournaments.services import create_tournament, register, start_tournament

pytestmark = [pytest.mark.slow]


@pytest.fixture
def tasks_here(settings: Any) -> Iterator[None]:
    """The evenings are played in this process: the tasks their commits queue (the next
    round, the seasons' refresh) run here at once, as in embedded mode. No turn timer: an
    eager Celery ignores an ETA, so a timer task would run at once and again, deeper."""
    from project.celery import app

    settings.CACHO_TIMERS = "off"
    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved


def table_rows(page: Any) -> list[list[str]]:
    """The standings as the page shows them: place, player, points, played."""
    rows = []
    for row in page.locator("#season-standings tbody tr").all():
        name = row.locator("th").evaluate("th => th.firstChild.textContent.trim()")
        cells = row.locator("td").all_inner_texts()
        rows.append([cells[0], name, cells[1], cells[2]])
    return rows


def stored_rows(season: Season) -> list[list[str]]:
    return [
        [str(line.rank), line.name, f"{line.total:g}", str(line.played)]
        for line in SeasonLine.objects.filter(season=season).order_by("position")
    ]


def both_sizes(page: Any, name: str) -> None:
    shot(page, f"season-{name}-desktop")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(50)  # the layout reflows; nothing is waited for but a frame
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    shot(page, f"season-{name}-phone")
    page.set_viewport_size(DESKTOP)
    assert overflow <= 1, f"{name}: the page is wider than a phone ({overflow}px)"


def make_user(name: str) -> Any:
    return get_user_model().objects.create_user(username=name, password="pw-1234567")


def test_a_club_runs_a_three_evening_season_and_draws_its_final(
    browser: Any, server: Server, tasks_here: None, console_watch: ConsoleWatch
) -> None:
    club, organiser = club_with_organiser(make_user, "jueves")
    ana, beto = make_user("ana"), make_user("beto")
    users = {"Ana": ana, "Beto": beto}
    context = browser.new_context(locale="en", viewport=DESKTOP)
    context.add_cookies([{"name": "django_language", "value": "en", "url": server.url}])
    name, value = session_cookie(organiser.username)["Cookie"].split("=", 1)
    context.add_cookies([{"name": name, "value": value, "url": server.url}])
    page = console_watch.watch(context.new_page(), responses=False)
    page.set_default_timeout(15_000)

    # The organiser creates the season from the club's page.
    page.goto(f"{server.url}/clubs/{club.pk}/")
    # The club's description and management links appear above the button as the page's
    # requests answer: click once they have (the last fills the tournaments' list).
    expect(page.locator("#club-manage-link")).to_be_visible()
    expect(page.locator("#tournaments li").first).not_to_have_text("Loading…")
    page.click("#club-season-new")
    page.wait_for_selector("#season-new-form")
    today = timezone.localdate()
    page.fill("#season-new-name", "Jueves de Cacho")
    page.fill("#season-new-starts", today.replace(day=1).isoformat())
    page.fill("#season-new-ends", today.replace(month=12, day=31).isoformat())
    page.fill("#season-best-of", "2")
    page.click("#season-new-form button[type=submit]")
    page.wait_for_selector("#season-empty")
    season = Season.objects.get(name="Jueves de Cacho")
    expect(page.locator("#season-best")).to_contain_text("the best 2 evenings of 0")
    both_sizes(page, "empty")

    # Evening 1: the places entered at the table.
    evening(club, organiser, "Jueves 1", {"Ana": 1, "Beto": 2, "Caro": 3, "Dani": 4, "Eva": 5}, users)
    page.reload()
    page.wait_for_selector("#season-standings")
    assert table_rows(page) == [
        ["1", "Ana", "25", "1"],
        ["2", "Beto", "18", "1"],
        ["3", "Caro", "15", "1"],
        ["4", "Dani", "12", "1"],
        ["5", "Eva", "10", "1"],
    ]
    both_sizes(page, "evening-1")

    # Evening 2: Ana and Beto play a real match; a referee's ruling reverses its result.
    second = create_tournament(club.pk, organiser, name="Jueves 2", ruleset="dudo", stages=one_table(2))
    for player, user in users.items():
        register(second.pk, organiser, name=player, user=user)
    start_tournament(second.pk, organiser)
    table = Table.objects.get(round__tournament=second)
    play_bidding_match(table.match_id, random.Random(5))
    table.refresh_from_db()
    winner = next(line["entry"] for line in table.result if line["placement"] == 1)
    loser = next(line["entry"] for line in table.result if line["placement"] == 2)
    won, lost = Entry.objects.get(pk=winner).name, Entry.objects.get(pk=loser).name
    page.reload()
    page.wait_for_selector("#season-standings")
    assert table_rows(page) == stored_rows(season)
    row_of = {row[1]: row for row in table_rows(page)}
    first = {"Ana": 25, "Beto": 18}
    assert row_of[won][2:] == [str(first[won] + 25), "2"] and row_of[lost][2:] == [str(first[lost] + 18), "2"]
    shot(page, "season-evening-2-before-ruling")

    seats = dict(Match.objects.get(pk=table.match_id).seats.values_list("index", "name"))
    by_entry = {s.entry_id: seats[s.match_seat] for s in table.seats.all()}
    party = APIClient()
    party.force_authenticate(users[lost])
    filed = party.post(f"/api/matches/{table.match_id}/disputes", {"reason": "wrong-result"})
    assert filed.status_code == 201, filed.json()
    referee = APIClient()
    referee.force_authenticate(organiser)
    ruled = referee.post(
        f"/api/disputes/{filed.json()['id']}/rule",
        {
            "ruling": {"kind": "award-result", "placements": {by_entry[loser]: 1, by_entry[winner]: 2}},
            "reason": "the sheet shows the calza",
        },
        format="json",
    )
    assert ruled.status_code == 200, ruled.json()
    won, lost = lost, won  # the ruling's winner
    page.reload()
    page.wait_for_selector("#season-standings")
    assert table_rows(page) == stored_rows(season)
    evening_2 = page.locator("#season-standings thead th").nth(5)
    expect(evening_2).to_have_text("Jueves 2")
    cell = page.locator(f"#season-standings tbody tr:has(th:text-is('{won}')) td").nth(4)
    expect(cell).to_contain_text("25")
    both_sizes(page, "evening-2-after-ruling")

    # Evening 3: the places entered again; best 2 of 3 drops each one's worst evening.
    evening(club, organiser, "Jueves 3", {"Caro": 1, "Dani": 2, "Eva": 3, "Beto": 4, "Ana": 5}, users)
    page.reload()
    page.wait_for_selector("#season-standings")
    rows = table_rows(page)
    assert rows == stored_rows(season)
    expect(page.locator("#season-best")).to_contain_text("the best 2 evenings of 3")
    third = {"Ana": 10, "Beto": 12}
    second_evening = {won: 25, lost: 18}
    totals = {p: sum(sorted([first[p], second_evening[p], third[p]])[1:]) for p in ("Ana", "Beto")}
    expected = {**totals, "Caro": 15 + 25, "Dani": 12 + 18, "Eva": 10 + 15}
    assert {row[1]: int(row[2]) for row in rows} == expected
    for player in ("Ana", "Beto"):  # three evenings played, the worst not counted
        line = page.locator(f"#season-standings tbody tr:has(th:text-is('{player}'))")
        expect(line.locator("td.dropped")).to_have_count(1)
    top = [row[1] for row in rows[:4]]
    assert "Eva" not in top and rows[4][1] == "Eva"
    both_sizes(page, "evening-3")
    axe_clean(page, "season-desktop")
    page.set_viewport_size(PHONE)
    axe_clean(page, "season-phone")
    page.set_viewport_size(DESKTOP)

    # The exports hold what the page shows.
    xlsx = page.request.get(f"{server.url}/api/seasons/{season.pk}/standings/xlsx")
    assert xlsx.ok
    sheet = load_workbook(io.BytesIO(xlsx.body())).worksheets[0]
    exported = [[str(c) for c in r[:4]] for r in sheet.iter_rows(min_row=2, values_only=True)]
    assert exported == rows
    csv_text = page.request.get(f"{server.url}/api/seasons/{season.pk}/standings/csv").text()
    assert [line.split(",")[:4] for line in csv_text.lstrip("\ufeff").splitlines()[1:]] == rows

    # The final: an empty tournament seeded by hand; the top 4 drawn into it in one step.
    final = create_tournament(
        club.pk, organiser, name="Gran final", ruleset="dudo", stages=one_table(4), seeding_method="manual"
    )
    page.reload()
    page.select_option("#season-final-tournament", str(final.pk))
    page.fill("#season-final-count", "4")
    page.click("#season-draw-final button[type=submit]")
    page.wait_for_selector("#season-final")
    expect(page.locator("#season-final a")).to_have_text("Gran final")
    seeded = list(
        Entry.objects.filter(tournament=final).order_by("seed").values_list("name", "seed", "user_id")
    )
    assert [(n, s) for n, s, _ in seeded] == [(n, i) for i, n in enumerate(top, start=1)]
    assert {n: u for n, _, u in seeded}.get("Caro", "absent") in (None, "absent")  # guests by name
    both_sizes(page, "final-drawn")
    page.click("#season-final a")
    page.wait_for_selector("#t-entries tbody tr")
    expect(page.locator("#t-entries tbody tr")).to_have_count(4)
    shot(page, "season-final-tournament")
    assert Tournament.objects.get(pk=final.pk).status == Tournament.REGISTRATION
    context.close()
