"""A walk-in plays its seat from its seat link on a phone (390×844): it opens the link,
takes the seat, sees its own dice (and no one else's) and makes a bid; a second phone
opening the same link is told it was used. Once the match ends and the next round is drawn,
the end screen leads the phone to its next table, where it plays with no new link."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from cacho.services import matches as match_service
from tests.frontend.conftest import shot
from tests.test_foundation.helpers import Server
from tournaments.clubs.members import create_club
from tournaments.models import Table
from tournaments.services import create_tournament, register, seat_link_desk, start_tournament
from tournaments.services.lifecycle import advance
from tournaments.services.results import record_match

pytestmark = [pytest.mark.slow]

PHONE = {"width": 390, "height": 844}


def test_a_walk_in_opens_its_seat_link_sees_its_dice_and_bids(open_page: Any, server: Server) -> None:
    organiser = get_user_model().objects.create(username="directora")
    club = create_club("Club", "club", organiser)
    stages = [{"name": "swiss", "format": "swiss", "params": {"rounds": 2, "table_size": 2}}]
    tournament = create_tournament(club.pk, organiser, name="Jueves", ruleset="dudo", stages=stages)
    for name in ("Walk-in Ana", "Walk-in Beto"):
        register(tournament.pk, organiser, name=name)
    start_tournament(tournament.pk, organiser)
    table = Table.objects.get(round__tournament=tournament)
    rows = seat_link_desk.seat_link_rows([table], lambda path: server.url + path)[table.pk]
    opener = next(row for row in rows if row.seat == 1)  # seat 1 opens the round: a bid is due
    other = next(row for row in rows if row.seat == 2)
    path = opener.url.removeprefix(server.url)

    phone = open_page(path, watch=True, viewport=PHONE)
    phone.wait_for_selector("#seat-take")
    assert opener.name in phone.inner_text("h1")
    shot(phone, "seat-link-phone")
    phone.click("#seat-take")
    phone.wait_for_url(f"**/matches/{table.match_id}/")
    phone.wait_for_selector("#match[data-version]")
    mine = phone.eval_on_selector_all(
        f'svg.die[data-owner="{opener.name}"]', "els => els.map(e => e.dataset.face)"
    )
    assert len(mine) == 5
    assert phone.locator(f'[data-owner="{other.name}"], [data-owner^="revealed:"]').count() == 0
    phone.wait_for_selector("#turn-who:has-text('Your turn')")
    face = phone.eval_on_selector("input[name=face]:not([disabled])", "e => e.value")
    phone.check(f"#face-{face}")
    phone.click("#do-bid")
    phone.wait_for_selector("#bid-history li[data-type='bid_made']")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "seat-link-phone-after-bid")

    # The same link on another phone: used, said in words, and that phone is no player.
    again = open_page(path, viewport=PHONE)
    again.wait_for_selector("#seat-link[data-code='seat-link-used']")
    assert "used already" in again.inner_text("#seat-link-message")
    watcher = open_page(f"/matches/{table.match_id}/", viewport=PHONE)
    watcher.wait_for_selector("#match[data-version]")
    assert watcher.locator("svg.die").count() == 0

    # Beto leaves: the match ends, round 2 is drawn (no worker here: the test records it), and
    # the phone's end screen, still open, leads it to its next table, where it plays.
    match_service.submit(table.match_id, other.name, {"type": "abandon"}, "walk-in-beto-leaves")
    record_match(table.match_id)
    advance(tournament.pk)
    following = Table.objects.get(round__tournament=tournament, round__number=2)
    phone.wait_for_selector("#end-next", timeout=20_000)
    assert phone.get_attribute("#end-next", "href") == f"/matches/{following.match_id}/"
    phone.click("#end-next")
    phone.wait_for_url(f"**/matches/{following.match_id}/")
    phone.wait_for_selector("#match[data-version]")
    assert phone.locator(f'svg.die[data-owner="{opener.name}"]').count() == 5
    assert phone.locator(f'[data-owner="{other.name}"], [data-owner^="revealed:"]').count() == 0


def test_the_console_lists_the_seat_links_and_issues_a_new_one(open_page: Any, server: Server) -> None:
    organiser = get_user_model().objects.create(username="directora")
    club = create_club("Club", "club", organiser)
    stages = [{"name": "swiss", "format": "swiss", "params": {"rounds": 1, "table_size": 2}}]
    tournament = create_tournament(club.pk, organiser, name="Jueves", ruleset="dudo", stages=stages)
    for name in ("Walk-in Ana", "Walk-in Beto"):
        register(tournament.pk, organiser, name=name)
    start_tournament(tournament.pk, organiser)
    table = Table.objects.get(round__tournament=tournament)
    ana = next(
        row
        for row in seat_link_desk.seat_link_rows([table], lambda p: server.url + p)[table.pk]
        if row.seat == 1
    )
    phone = open_page(ana.url.removeprefix(server.url), viewport=PHONE)
    phone.click("#seat-take")
    phone.wait_for_selector("#match[data-version]")

    console = open_page(f"/organise/?t={tournament.pk}", "directora", watch=True)
    console.wait_for_selector("details.seat-links-box summary")
    assert "1 of 2 waiting for the player" in console.inner_text("details.seat-links-box summary")
    console.click("details.seat-links-box summary")
    row = console.locator(f'li[data-seat-link="{ana.entry}"]')
    assert row.get_attribute("data-status") == "claimed" and "seated" in row.inner_text()
    assert console.locator("li[data-seat-link] img.seat-link-qr").count() == 2
    shot(console, "seat-links-console")
    console.once("dialog", lambda dialog: dialog.accept())
    row.locator("button[data-reissue]").click()
    console.wait_for_selector(f'li[data-seat-link="{ana.entry}"][data-status="waiting"]')
    assert console.locator("details.seat-links-box").get_attribute("open") is not None  # kept open
    new = console.get_attribute(f'li[data-seat-link="{ana.entry}"] a', "href")
    assert new != ana.url
    # The phone that held the old link is no player any more.
    phone.reload()
    phone.wait_for_selector("#match[data-version]")
    assert phone.locator("svg.die").count() == 0
