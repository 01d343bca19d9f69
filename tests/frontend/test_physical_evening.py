"""A physical club evening from the browser to its end, as a club runs one: the organiser
creates a tournament of real tables in the console, pastes the guests at the desk and
starts it; the club's scorekeeper keeps each table from a phone, its players confirm the
sheet there; the next round is drawn when the last table closes; the final standings and
their CSV name the winner the tables made. No page logs a console error."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.frontend.conftest import shot
from tests.frontend.test_scorekeeper import DESKTOP, PHONE, _outcome
from tests.live.harness import session_cookie
from tournaments.clubs import members as club_members
from tournaments.models import Membership, Table, Tournament

pytestmark = [pytest.mark.slow]

GUESTS = ["Ana Quispe", "Beto Mamani", "Carla Rojas", "Dario Flores"]
WINNER = "Ana Quispe"  # the scorekeeper never takes a die from her


def _origin(page: Any) -> str:
    return "/".join(page.url.split("/")[:3])


def _club() -> None:
    session_cookie("olga")
    session_cookie("santi")
    users = get_user_model().objects
    olga = users.get(username="olga")
    club = club_members.create_club("Club del Jueves", "jueves", olga)
    club_members.grant_role(club.pk, users.get(username="santi"), Membership.SCOREKEEPER, olga)


def _create_physical_swiss(page: Any) -> Tournament:
    page.wait_for_selector("#create[data-ready]")
    page.wait_for_selector("#c-club option", state="attached")
    page.fill("#c-name", "Jueves de mesa")
    page.select_option("#c-ruleset", "dudo")
    page.select_option("#s-0-format", "swiss")
    page.fill("#s-0-rounds", "2")
    page.fill("#s-0-table_size", "4")
    page.check("#c-physical")
    page.click("#c-submit")
    page.wait_for_selector("#manage[data-ready][data-status='registration']")
    tournament = Tournament.objects.get(name="Jueves de mesa")
    assert tournament.physical
    return tournament


def _keep_table(keeper: Any, tournament: Tournament, round_number: int) -> None:
    """The scorekeeper opens the round's table from the tournament page, enters it round by
    round by its outcome and hands the phone round for the guests to confirm by name."""
    table = Table.objects.get(round__tournament=tournament, round__number=round_number)
    keeper.goto(_origin(keeper) + f"/tournaments/{tournament.pk}/")
    keeper.click(f"[data-keep-score='{table.pk}']")
    keeper.wait_for_selector("#sk[data-loaded='1']")
    entered = 0
    while keeper.locator("#sk-confirm").is_hidden():
        _outcome(keeper, WINNER)
        entered += 1
        assert entered <= 15, "a table of four with five dice each ends within 15 rounds"
    assert entered == 15  # each round takes one die from a loser; the winner keeps all five
    shot(keeper, f"physical-evening-round-{round_number}-confirm-phone")
    for name in GUESTS:
        row = keeper.locator(f".sk-confirm-row:has-text('{name}')")
        row.locator("input").fill(name)
        row.locator("button").click()
        if name != GUESTS[-1]:
            keeper.wait_for_selector(f".sk-confirmations li.done:has-text('{name}')")
    keeper.wait_for_selector("#sk-closed")  # the last confirmation closes the table
    shot(keeper, f"physical-evening-round-{round_number}-closed-phone")


def test_a_physical_evening_from_the_console_to_the_exported_standings(open_page: Any, worker: Any) -> None:
    """The results and the next round come through the real Celery worker."""
    _club()
    console = open_page("/organise/", "olga", watch=True, viewport=DESKTOP)
    tournament = _create_physical_swiss(console)

    # the guests, pasted at the desk
    console.click("#m-desk-link")
    console.wait_for_selector("#desk[data-ready]")
    console.fill("#d-names", "\n".join(GUESTS) + "\n")
    console.click("#d-paste-submit")
    console.wait_for_selector(f'#d-paste-result [data-registered="{len(GUESTS)}"]')
    expect(console.locator("#d-entries tbody tr")).to_have_count(len(GUESTS))
    console.click("#d-back")
    console.wait_for_selector("#manage[data-ready]")
    console.click("#m-start")
    console.wait_for_selector("#manage[data-status='running'] #m-tables li.table-row .badge.physical")
    shot(console, "physical-evening-console-round-1-desktop")

    keeper = open_page(f"/tournaments/{tournament.pk}/", "santi", watch=True, viewport=PHONE)
    keeper.wait_for_selector("#tournament[data-loaded]")
    _keep_table(keeper, tournament, 1)

    # the organiser's console moves on by itself: round 1 finished, round 2 drawn
    console.wait_for_selector('#m-rounds li[data-round="1"][data-status="finished"]', timeout=20_000)
    console.wait_for_selector("#m-round[data-round='2'] #m-tables li.table-row[data-state]", timeout=20_000)
    _keep_table(keeper, tournament, 2)

    console.wait_for_selector("#manage[data-status='finished']", timeout=20_000)
    # the console's own list says so too, and nothing stale is left in its message line
    expect(console.locator(f"#t-list li[data-tournament='{tournament.pk}'] .help")).to_contain_text(
        "finished"
    )
    assert console.locator("#m-finished").is_visible()
    shot(console, "physical-evening-console-finished-desktop")

    # the public page's final standings and the CSV agree on the winner
    standings = open_page(f"/tournaments/{tournament.pk}/", None, watch=True, viewport=DESKTOP)
    standings.wait_for_selector("#tournament[data-loaded]")
    rows = standings.locator("#t-standings tbody tr[data-entry]")
    expect(rows).to_have_count(len(GUESTS))
    assert WINNER in rows.first.inner_text()
    shot(standings, "physical-evening-standings-desktop")
    answer = standings.request.get(f"{_origin(standings)}/api/tournaments/{tournament.pk}/standings/csv")
    assert answer.status == 200
    table = list(csv.reader(io.StringIO(answer.text().lstrip("\ufeff"))))
    names = [row for row in table[1:] if row]
    assert WINNER in names[0] and len(names) == len(GUESTS), table
    tournament.refresh_from_db()
    assert tournament.status == Tournament.FINISHED
    assert Table.objects.filter(round__tournament=tournament, status=Table.FINISHED).count() == 2
