"""The director's controls of a club night, from the browser: check-in closed
before its deadline at the desk, and "close check-in and start" in one step on the console;
a table of the round made physical (its scorekeeper link at once) and back online before
its first move; a withdrawn entry marked by a badge in words wherever the console names it.
Screenshots at 1280 × 800 and 390 × 844; axe finds no serious violation; no page logs an
error."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from tests.frontend.conftest import shot
from tests.frontend.test_accessibility import axe_clean
from tests.frontend.test_scorekeeper import DESKTOP, PHONE
from tests.live.harness import session_cookie
from tournaments import services
from tournaments.clubs import members as club_members
from tournaments.models import Entry, Membership, Table, Tournament, TournamentEvent

pytestmark = [pytest.mark.slow]

GUESTS = ["Ana Quispe", "Beto Mamani", "Carla Rojas", "Dario Flores"]
SWISS = [{"name": "swiss", "format": "swiss", "params": {"rounds": 2, "table_size": 2}}]


def _club() -> Any:
    session_cookie("olga")
    session_cookie("santi")
    users = get_user_model().objects
    olga = users.get(username="olga")
    club = club_members.create_club("Club del Jueves", "jueves", olga)
    club_members.grant_role(club.pk, users.get(username="santi"), Membership.SCOREKEEPER, olga)
    return club, olga


def _evening(name: str, *, check_in: bool) -> Tournament:
    """Four guests; with `check_in`, a deadline an hour away and all but the last checked in."""
    club, olga = _club()
    deadline = timezone.now() + dt.timedelta(hours=1) if check_in else None
    tournament = services.create_tournament(
        club.pk, olga, name=name, ruleset="dudo", stages=SWISS, checkin_deadline=deadline
    )
    entries = [services.register(tournament.pk, olga, name=guest) for guest in GUESTS]
    if check_in:
        for entry in entries[:-1]:
            services.check_in(entry.pk, olga)
    return tournament


def _both_sizes(page: Any, name: str) -> None:
    """A screenshot and axe at the desktop size and at a phone's, back to the desktop."""
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        shot(page, f"{name}-{size}")
        axe_clean(page, f"{name}-{size}")
    page.set_viewport_size(DESKTOP)


def _kinds(tournament: Tournament) -> list[str]:
    return list(TournamentEvent.objects.filter(tournament=tournament).values_list("type", flat=True))


def test_the_desk_closes_check_in_early_and_the_console_starts_at_once(open_page: Any) -> None:
    tournament = _evening("Jueves con lista", check_in=True)
    desk = open_page(f"/organise/{tournament.pk}/entries/", "olga", watch=True, viewport=DESKTOP)
    desk.wait_for_selector("#desk[data-ready]")
    expect(desk.locator("#d-checkin")).to_have_attribute("data-checkin", "open")
    # the deadline can still be changed, and check-in closed now
    expect(desk.locator("#d-deadline-form")).to_be_visible()
    expect(desk.locator("#d-deadline-save")).to_have_text("Change the deadline")
    expect(desk.locator("#d-close-checkin")).to_be_visible()
    _both_sizes(desk, "club-night-desk-check-in-open")

    said: list[str] = []
    desk.once("dialog", lambda dialog: (said.append(dialog.message), dialog.accept()))
    desk.click("#d-close-checkin")
    desk.wait_for_selector("#d-checkin[data-checkin='closed']")
    assert said == ["Close check-in now? 1 entry has not checked in: it is dropped at the start."]
    expect(desk.locator("#d-close-checkin")).to_be_hidden()
    expect(desk.locator("#d-checkin-note")).to_contain_text(
        "3 checked in; 1 not checked in are dropped at the start"
    )
    expect(desk.locator("#d-deadline-form")).to_be_visible()  # a new deadline would open it again
    assert desk.locator("tr[data-entry] [data-action='check-in']").count() == 0
    assert "check-in-closed" in _kinds(tournament)
    _both_sizes(desk, "club-night-desk-check-in-closed")

    desk.click("#d-back")
    desk.wait_for_selector("#manage[data-ready][data-status='registration']")
    expect(desk.locator("#m-start")).to_have_text("Start the tournament")
    desk.click("#m-start")
    desk.wait_for_selector("#manage[data-status='running'] #m-tables li.table-row")
    dario = Entry.objects.get(tournament=tournament, name="Dario Flores")
    assert dario.status == Entry.NO_SHOW


def test_the_console_closes_check_in_and_starts_in_one_step(open_page: Any) -> None:
    tournament = _evening("Jueves sin esperar", check_in=True)
    console = open_page(f"/organise/?t={tournament.pk}", "olga", watch=True, viewport=DESKTOP)
    console.wait_for_selector("#manage[data-ready][data-status='registration']")
    expect(console.locator("#m-start")).to_have_text("Close check-in and start")
    expect(console.locator("#m-start-help")).to_contain_text("Check-in is still open")
    _both_sizes(console, "club-night-console-close-and-start")
    said: list[str] = []
    console.once("dialog", lambda dialog: (said.append(dialog.message), dialog.accept()))
    console.click("#m-start")
    console.wait_for_selector("#manage[data-status='running'] #m-tables li.table-row")
    assert said and "1 entry has not checked in" in said[0]
    kinds = _kinds(tournament)
    assert (
        kinds.index("check-in-closed") < kinds.index("no-shows-dropped") < kinds.index("tournament-started")
    )


def test_a_table_goes_physical_and_back_and_a_withdrawn_entry_is_marked(open_page: Any) -> None:
    tournament = _evening("Jueves de mesas", check_in=False)
    olga = get_user_model().objects.get(username="olga")
    services.start_tournament(tournament.pk, olga)
    first, second = Table.objects.filter(round__tournament=tournament).order_by("number")
    console = open_page(f"/organise/?t={tournament.pk}", "olga", watch=True, viewport=DESKTOP)
    console.wait_for_selector("#manage[data-ready][data-status='running']")
    row = console.locator(f"li.table-row[data-table='{first.pk}']")
    expect(row).to_have_attribute("data-state", "waiting")

    row.locator("[data-switch='physical']").click()
    # the scorekeeper's screen is one click away at once
    expect(row.locator(f"[data-keep-score='{first.pk}']")).to_be_visible()
    expect(row.locator(".badge.physical")).to_have_text("physical")
    first.refresh_from_db()
    assert first.physical
    row.locator("[data-switch='online']").click()
    expect(row.locator("[data-keep-score]")).to_have_count(0)
    row.locator("[data-switch='physical']").click()
    expect(row.locator(f"[data-keep-score='{first.pk}']")).to_be_visible()
    assert _kinds(tournament).count("table-made-physical") == 2 and "table-made-online" in _kinds(tournament)

    # a withdrawal at the other table: a badge in words beside the name, and the table under way
    # (its match has the abandon) offers no switch any more
    leaver = second.seats.order_by("index").first().entry
    services.withdraw(leaver.pk, olga)
    console.reload()
    console.wait_for_selector("#manage[data-ready][data-status='running']")
    other = console.locator(f"li.table-row[data-table='{second.pk}']")
    badge = other.locator(f"li[data-entry='{leaver.pk}'] [data-out='withdrawn']")
    expect(badge).to_have_text("withdrawn")
    expect(other.locator("[data-switch]")).to_have_count(0)
    _both_sizes(console, "club-night-console-tables")

    # the club's scorekeeper keeps the table made physical
    keeper = open_page(f"/scorekeeper/tables/{first.pk}/", "santi", watch=True, viewport=PHONE)
    keeper.wait_for_selector("#sk[data-loaded='1']")


def _play_one_round(match_id: Any) -> None:
    """A bid and its dudo: the round under way resolves (through the match write path)."""
    from cacho.services import matches as match_service
    from tests.cacho.helpers import command_id, state_of

    state = state_of(match_id)
    bidder = state.config.players[state.round.to_act]
    match_service.submit(match_id, bidder, {"type": "bid", "quantity": 1, "face": 5}, command_id())
    state = state_of(match_id)
    match_service.submit(match_id, state.config.players[state.round.to_act], {"type": "dudo"}, command_id())


def test_the_director_ends_a_round_at_time_and_every_table_says_so(open_page: Any) -> None:
    tournament = _evening("Jueves a tiempo", check_in=False)
    olga = get_user_model().objects.get(username="olga")
    services.start_tournament(tournament.pk, olga)
    tables = list(Table.objects.filter(round__tournament=tournament).order_by("number"))
    viewers = [open_page(f"/matches/{t.match_id}/", None, watch=True, viewport=PHONE) for t in tables]
    for viewer in viewers:
        viewer.wait_for_selector("#match[data-version]")
        expect(viewer.locator("#time-called")).to_be_hidden()

    console = open_page(f"/organise/?t={tournament.pk}", "olga", watch=True, viewport=DESKTOP)
    console.wait_for_selector("#manage[data-ready][data-status='running']")
    said: list[str] = []
    console.once("dialog", lambda dialog: (said.append(dialog.message), dialog.accept()))
    console.click("#m-call-time")
    console.wait_for_selector("#m-round[data-time-called='true']")
    assert said and said[0].startswith("End round 1 at time?") and "Dice left" in said[0]
    expect(console.locator("#m-call-time")).to_be_hidden()
    expect(console.locator("#m-time-called")).to_contain_text("finish as the rule says (Dice left)")
    # the clock gives way to the call: it is not "not started", and it is not started now
    expect(console.locator("#m-time-called")).to_contain_text("Time called at")
    expect(console.locator("#clock-display")).to_be_hidden()
    expect(console.locator("#clock-start")).to_be_hidden()
    assert "has not been started" not in console.inner_text("#m-round")
    assert "time-called" in _kinds(tournament)

    # the banner reaches every table of the round live, with no reload
    for viewer in viewers:
        expect(viewer.locator("#time-called")).to_have_text("Time has been called: Dice left.")
    shot(viewers[0], "club-night-table-time-called-phone")
    axe_clean(viewers[0], "club-night-table-time-called-phone")

    # one table's round under way resolves: the table is decided at time, and says so
    first = tables[0]
    _play_one_round(first.match_id)
    expect(viewers[0].locator("#time-called")).to_have_attribute("data-decided", "true")
    expect(viewers[0].locator("#time-called")).to_have_text("This table was decided at time: Dice left.")
    services.sweep()  # no worker here: the sweep records the table
    console.reload()
    console.wait_for_selector("#manage[data-ready][data-status='running']")
    row = console.locator(f"li.table-row[data-table='{first.pk}']")
    expect(row).to_have_attribute("data-state", "finished")
    expect(row.locator("[data-at-time]")).to_have_text("decided at time")
    _both_sizes(console, "club-night-console-at-time")

    # the tournament page and the replay mark it too
    page = open_page(f"/tournaments/{tournament.pk}/", None, watch=True, viewport=DESKTOP)
    page.wait_for_selector("#tournament[data-loaded]")
    card = page.locator(f"li.table-card[data-table='{first.pk}']")
    expect(card.locator("[data-at-time]")).to_have_text("decided at time")
    # and so do the standings, beside the names of the table's players
    for seat in first.seats.all():
        row = page.locator(f"#t-standings tr[data-entry='{seat.entry_id}']")
        expect(row.locator("[data-at-time]")).to_have_text("decided at time")
    expect(page.locator("#t-standings [data-at-time]")).to_have_count(first.seats.count())
    spanish = open_page(f"/tournaments/{tournament.pk}/", None, locale="es", viewport=PHONE)
    spanish.wait_for_selector("#tournament[data-loaded]")
    expect(spanish.locator("#t-standings [data-at-time]").first).to_have_text("mesa decidida por tiempo")
    replay = open_page(f"/matches/{first.match_id}/replay", None, watch=True, viewport=DESKTOP)
    replay.wait_for_selector("#replay[data-loaded]")
    expect(replay.locator("h1 [data-at-time]")).to_have_text("decided at time")
    _both_sizes(replay, "club-night-replay-at-time")
