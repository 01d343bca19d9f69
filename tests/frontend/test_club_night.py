"""A whole club night from the browser, on PostgreSQL + Redis with a real Celery worker:
the director creates a Dudo Swiss with a check-in deadline still
ahead, pastes the guests at the desk, checks six of seven in and closes check-in early
("Close check-in now"), then starts. Round 1 has three tables: the console makes one
physical before it starts, and the club's scorekeeper keeps it from a phone until its
players confirm the sheet; one online table is played to its end by the engine's bot
moves; at the other a walk-in opens the seat link the console shows, on a phone, takes
the seat (its own dice only) and bids. The director ends the round at time from the
console: the banner reaches that table live, its round resolves and time decides it by
the default rule (dice left); the worker records it and draws round 2. The tournament
page, the standings and the replay say "decided at time".

Every page is kept at 1280 × 800 and 390 × 844 as tests/frontend/artifacts/
club-night-evening-*.png, axe finds no serious violation on any of them, and no page
logs an error or receives an HTTP error."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from cacho.services import matches as match_service
from tests.cacho.helpers import command_id, state_of
from tests.frontend.test_club_night_controls import _both_sizes, _kinds
from tests.frontend.test_scorekeeper import _outcome
from tests.frontend.viewing import DESKTOP, PHONE
from tests.live.harness import session_cookie
from tests.test_foundation.helpers import Server
from tests.tournaments.helpers import play_bidding_match
from tournaments.clubs import members as club_members
from tournaments.models import Entry, Membership, Table, Tournament

pytestmark = [pytest.mark.slow]

GUESTS = ["Ana Quispe", "Beto Mamani", "Carla Rojas", "Dario Flores", "Elena Choque", "Fito Vargas"]
LATE = "Gabi Condori"  # registered, never checks in: dropped at the start
SLOW = 30_000  # what waits on the worker or on the console's poll (every 5 s) on a busy machine


def _seen(page: Any, name: str) -> None:
    """Kept at both sizes with axe run at each; back to the size the page was opened at."""
    size = page.viewport_size
    _both_sizes(page, f"club-night-evening-{name}")
    page.set_viewport_size(size)


def _club() -> None:
    session_cookie("olga")
    session_cookie("santi")
    users = get_user_model().objects
    olga = users.get(username="olga")
    club = club_members.create_club("Club del Viernes", "viernes", olga)
    club_members.grant_role(club.pk, users.get(username="santi"), Membership.SCOREKEEPER, olga)


def _create(console: Any) -> Tournament:
    """The create form: a Dudo Swiss of two rounds at tables of two, the turn long enough that
    no timer plays for anyone, a check-in deadline a day ahead (in any time zone)."""
    console.wait_for_selector("#create[data-ready]")
    console.wait_for_selector("#c-club option", state="attached")
    console.fill("#c-name", "Viernes de club")
    console.select_option("#c-ruleset", "dudo")
    console.select_option("#s-0-format", "swiss")
    console.fill("#s-0-rounds", "2")
    console.fill("#s-0-table_size", "2")
    console.fill("#c-turn", "600")
    deadline = dt.datetime.now() + dt.timedelta(days=1)
    console.fill("#c-checkin", deadline.strftime("%Y-%m-%dT%H:%M"))
    console.click("#c-submit")
    console.wait_for_selector("#manage[data-ready][data-status='registration']")
    tournament = Tournament.objects.get(name="Viernes de club")
    assert tournament.checkin_deadline is not None and not tournament.physical
    return tournament


def _desk(console: Any, tournament: Tournament) -> None:
    """The guests pasted, six checked in with the big buttons, check-in closed early."""
    console.click("#m-desk-link")
    console.wait_for_selector("#desk[data-ready]")
    console.fill("#d-names", "\n".join([*GUESTS, LATE]) + "\n")
    console.click("#d-paste-submit")
    console.wait_for_selector(f'#d-paste-result [data-registered="{len(GUESTS) + 1}"]')
    expect(console.locator("#d-checkin")).to_have_attribute("data-checkin", "open")
    for name in GUESTS:
        entry = Entry.objects.get(tournament=tournament, name=name)
        console.click(f'tr[data-entry="{entry.pk}"] button[data-action="check-in"]')
        console.wait_for_selector(f'tr[data-entry="{entry.pk}"][data-status="checked_in"]')
    expect(console.locator("#d-close-checkin")).to_be_visible()
    _seen(console, "desk-check-in-open")

    said: list[str] = []
    console.once("dialog", lambda dialog: (said.append(dialog.message), dialog.accept()))
    console.click("#d-close-checkin")
    console.wait_for_selector("#d-checkin[data-checkin='closed']")
    assert said == ["Close check-in now? 1 entry has not checked in: it is dropped at the start."]
    expect(console.locator("#d-checkin-note")).to_contain_text("6 checked in; 1 not checked in")
    assert "check-in-closed" in _kinds(tournament)
    _seen(console, "desk-check-in-closed")

    console.click("#d-back")
    console.wait_for_selector("#manage[data-ready][data-status='registration']")
    expect(console.locator("#m-start")).to_have_text("Start the tournament")  # check-in is closed
    console.click("#m-start")
    console.wait_for_selector("#manage[data-status='running'] #m-tables li.table-row")
    assert Entry.objects.get(tournament=tournament, name=LATE).status == Entry.NO_SHOW


def _keep(keeper: Any, table: Table) -> None:
    """The scorekeeper enters the physical table by its outcome (its first player never
    loses a die), then each guest confirms the sheet on the same phone by their name."""
    names = [seat.entry.name for seat in table.seats.select_related("entry").order_by("index")]
    keeper.wait_for_selector("#sk[data-loaded='1']")
    _seen(keeper, "scorekeeper")
    entered = 0
    while keeper.locator("#sk-confirm").is_hidden():
        _outcome(keeper, names[0])
        entered += 1
        assert entered <= 5, "a table of two with five dice each ends within five rounds"
    _seen(keeper, "scorekeeper-confirm")
    for name in names:
        row = keeper.locator(f".sk-confirm-row:has-text('{name}')")
        row.locator("input").fill(name)
        row.locator("button").click()
        if name != names[-1]:
            keeper.wait_for_selector(f".sk-confirmations li.done:has-text('{name}')")
    keeper.wait_for_selector("#sk-closed")  # the last confirmation closes the table
    _seen(keeper, "scorekeeper-closed")


def test_a_club_night_from_check_in_to_round_two(open_page: Any, server: Server, worker: Any) -> None:
    _club()
    console = open_page("/organise/", "olga", watch=True, viewport=DESKTOP)
    tournament = _create(console)
    _desk(console, tournament)

    # ------------------------------------------------------------ round 1: three tables
    walk_table, bot_table, real_table = Table.objects.filter(round__tournament=tournament).order_by("number")
    assert walk_table.round.number == 1
    row = console.locator(f"li.table-row[data-table='{real_table.pk}']")
    expect(row).to_have_attribute("data-state", "waiting")
    row.locator("[data-switch='physical']").click()
    expect(row.locator(f"[data-keep-score='{real_table.pk}']")).to_be_visible()  # at once
    expect(row.locator(".badge.physical")).to_have_text("physical")
    real_table.refresh_from_db()
    assert real_table.physical and "table-made-physical" in _kinds(tournament)

    # the walk-in opens the round at their table (seat 1 opens): their link, from the console
    walk_in = walk_table.seats.select_related("entry").get(index=0).entry
    other = walk_table.seats.select_related("entry").get(index=1).entry
    walk_row = console.locator(f"li.table-row[data-table='{walk_table.pk}']")
    walk_row.locator("details.seat-links-box summary").click()
    link = walk_row.locator(f"li[data-seat-link='{walk_in.pk}']")
    expect(link).to_have_attribute("data-status", "waiting")
    assert console.locator(f"li.table-row[data-table='{real_table.pk}'] details.seat-links-box").count() == 0
    _seen(console, "console-round-1")
    url = link.locator("a").get_attribute("href")
    assert url.startswith(server.url), url

    # ------------------------------------------------------------ the walk-in on a phone
    phone = open_page(url.removeprefix(server.url), watch=True, viewport=PHONE)
    phone.wait_for_selector("#seat-take")
    assert walk_in.name in phone.inner_text("h1")
    _seen(phone, "seat-link")
    phone.click("#seat-take")
    phone.wait_for_url(f"**/matches/{walk_table.match_id}/")
    phone.wait_for_selector("#match[data-version]")
    phone.wait_for_selector("#turn-who:has-text('Your turn')")
    assert phone.locator(f'svg.die[data-owner="{walk_in.name}"]').count() == 5
    assert phone.locator(f'[data-owner="{other.name}"], [data-owner^="revealed:"]').count() == 0
    face = phone.eval_on_selector("input[name=face]:not([disabled])", "e => e.value")
    phone.check(f"#face-{face}")
    phone.click("#do-bid")
    phone.wait_for_selector("#bid-history li[data-type='bid_made']")
    assert state_of(walk_table.match_id).round.to_act == 1  # the bid is the engine's
    _seen(phone, "walk-in-table")
    taken = f"li[data-seat-link='{walk_in.pk}'][data-status='claimed']"
    console.wait_for_selector(f"li.table-row[data-table='{walk_table.pk}'] {taken}", timeout=SLOW)

    # ------------------------------------------------------------ the physical table, kept from a phone
    keeper = open_page(f"/scorekeeper/tables/{real_table.pk}/", "santi", watch=True, viewport=PHONE)
    _keep(keeper, real_table)

    # ------------------------------------------------------------ the other online table, to its end
    play_bidding_match(bot_table.match_id, random.Random(27))
    for done in (bot_table, real_table):  # recorded by the worker
        finished = f"li.table-row[data-table='{done.pk}'][data-state='finished']"
        console.wait_for_selector(finished, timeout=SLOW)
    walk_table.refresh_from_db()
    assert walk_table.status == Table.PLAYING

    # ------------------------------------------------------------ the director ends the round at time
    spectator = open_page(f"/matches/{walk_table.match_id}/", None, watch=True, viewport=DESKTOP)
    spectator.wait_for_selector("#match[data-version]")
    expect(spectator.locator("#time-called")).to_be_hidden()
    said: list[str] = []
    console.once("dialog", lambda dialog: (said.append(dialog.message), dialog.accept()))
    console.click("#m-call-time")
    console.wait_for_selector("#m-round[data-time-called='true']")
    assert said and said[0].startswith("End round 1 at time?") and "Dice left" in said[0]
    expect(console.locator("#m-time-called")).to_contain_text("Dice left")
    _seen(console, "console-time-called")
    for table_page in (phone, spectator):  # live, with no reload
        expect(table_page.locator("#time-called")).to_have_text("Time has been called: Dice left.")
    _seen(spectator, "table-time-called")

    # the round under way resolves (the other guest calls dudo): time decides the table
    match_service.submit(walk_table.match_id, other.name, {"type": "dudo"}, command_id())
    for table_page in (phone, spectator):
        banner = table_page.locator("#time-called")
        expect(banner).to_have_attribute("data-decided", "true", timeout=SLOW)
        expect(banner).to_have_text("This table was decided at time: Dice left.")
    phone.wait_for_selector("#end-screen:not([hidden])")
    phone.wait_for_selector("#reveal[data-phase='done']", timeout=15_000)  # the dudo's reveal, at rest
    _seen(phone, "walk-in-decided-at-time")

    # ------------------------------------------------------------ the worker draws round 2
    console.wait_for_selector('#m-rounds li[data-round="1"][data-status="finished"]', timeout=SLOW)
    console.wait_for_selector("#m-round[data-round='2'] #m-tables li.table-row", timeout=SLOW)
    expect(console.locator("#m-tables li.table-row")).to_have_count(3)
    assert console.locator("#m-round").get_attribute("data-time-called") == "false"  # a new round
    _seen(console, "console-round-2")
    walk_table.refresh_from_db()
    assert walk_table.status == Table.FINISHED
    places = sorted(line["placement"] for line in walk_table.result)
    assert places == [1, 2]  # dice left: five against four, no shared place
    assert Table.objects.filter(round__tournament=tournament, round__number=2).count() == 3
    kinds = _kinds(tournament)
    called = kinds.index("time-called")
    assert kinds.index("round-finished", called) < kinds.index("round-created", called)

    # ------------------------------------------------------------ the results say "decided at time"
    public = open_page(f"/tournaments/{tournament.pk}/", None, watch=True, viewport=DESKTOP)
    public.wait_for_selector("#tournament[data-loaded]")
    card = public.locator(f".round-col[data-round='1'] li.table-card[data-table='{walk_table.pk}']")
    expect(card.locator("[data-at-time]")).to_have_text("decided at time")
    for plain in (bot_table, real_table):
        expect(public.locator(f"li.table-card[data-table='{plain.pk}'] [data-at-time]")).to_have_count(0)
    expect(public.locator(".round-col[data-round='2'] li.table-card")).to_have_count(3)
    expect(public.locator("#t-standings tbody tr[data-entry]")).to_have_count(len(GUESTS))
    _seen(public, "tournament")

    standings = open_page(f"/api/tournaments/{tournament.pk}/standings/print", "olga", watch=True)
    standings.wait_for_selector("#at-time-legend")
    headers = standings.locator("table.standings thead th").all_inner_texts()
    assert headers[-1] == "Decided at time", headers
    played_out = bot_table.seats.select_related("entry").get(index=0).entry
    for entry, count in ((walk_in, "1"), (other, "1"), (played_out, "0")):
        cells = standings.locator(f"table.standings tbody tr:has(td:text-is('{entry.name}')) td")
        assert cells.last.inner_text() == count, (entry.name, cells.all_inner_texts())
    _seen(standings, "standings")

    replay = open_page(f"/matches/{walk_table.match_id}/replay", None, watch=True, viewport=DESKTOP)
    replay.wait_for_selector("#replay[data-loaded]")
    expect(replay.locator("h1 [data-at-time]")).to_have_text("decided at time")
    _seen(replay, "replay")
