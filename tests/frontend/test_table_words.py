"""The table's words and marks in a real browser: a die and dice counted right in
Spanish ("1 dado", "4 dados") and English ("1 die"); the "‖" away mark and its legend while a
seated player is not connected, gone once they are; and the end screen of a tournament table
with the tournament's updated standings, the leaders and the player's own row. Every page
watched: no console error, no failed request."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from cacho.models import Match
from cacho.services import matches
from tests.frontend.conftest import shot
from tests.live.harness import session_cookie
from tests.tournaments.helpers import seat_named
from tournaments import services
from tournaments.clubs import members as club_members
from tournaments.models import Table

pytestmark = [pytest.mark.slow]

PHONE = {"width": 390, "height": 844}
_ids = itertools.count(1)


def _user(name: str) -> Any:
    session_cookie(name)
    return get_user_model().objects.get(username=name)


def _casual(seats: tuple[str, ...] = ("ana", "beto")) -> Match:
    match = matches.create_match("dudo", list(seats), turn_seconds=600)
    for index, name in enumerate(seats):
        matches.take_seat(match.pk, index, _user(name))
    return match


def _adjust(match: Match, player: str, delta: int) -> None:
    """A referee's ruling (through the write path, as the disputes do): the quickest honest
    way to a table where someone holds a single die."""
    matches.rule(
        match.pk,
        {"kind": "adjust-dice", "player": player, "delta": delta},
        referee="rita",
        reason="set-up",
        command_id=f"words-{next(_ids)}",
    )


def _count(page: Any, player: str) -> str:
    text: str = page.inner_text(f'[data-player="{player}"] .count')
    return text


def test_a_die_and_dice_in_spanish_and_english_at_the_table(open_page: Any) -> None:
    match = _casual()
    _adjust(match, "ana", -4)
    _adjust(match, "beto", -1)
    spanish = open_page(f"/matches/{match.pk}/", "ana", locale="es", watch=True, viewport=PHONE)
    spanish.wait_for_selector('[data-player="beto"] .count')
    assert (_count(spanish, "ana"), _count(spanish, "beto")) == ("1 dado", "4 dados")
    assert spanish.get_attribute('[data-player="ana"] svg.cup', "aria-label") == "1 dado"
    shot(spanish, "table-words-es-phone")
    english = open_page(f"/matches/{match.pk}/", "beto", watch=True)
    english.wait_for_selector('[data-player="ana"] .count')
    assert (_count(english, "ana"), _count(english, "beto")) == ("1 die", "4 dice")
    assert english.get_attribute('[data-player="ana"] svg.cup', "aria-label") == "1 die"
    # the referee's changes, in the game log
    english.wait_for_selector("#game-log li[data-type='dice_changed']", state="attached")
    changed = english.eval_on_selector_all(
        "#game-log li[data-type='dice_changed']", "els => els.map(e => e.textContent)"
    )
    assert "ana's dice by -4" in changed[0] and "beto's dice by -1" in changed[1], changed
    shot(english, "table-words-en")


def test_the_away_mark_and_its_legend_while_a_player_is_not_connected(open_page: Any) -> None:
    match = _casual()
    ana = open_page(f"/matches/{match.pk}/", "ana", watch=True)
    ana.wait_for_selector('[data-player="beto"] .presence.gone')
    mark = ana.locator('[data-player="beto"] .presence.gone')
    assert mark.inner_text() == "‖"
    assert mark.get_attribute("aria-label") == "beto is away (not connected)"
    assert ana.locator('[data-player="beto"].away').count() == 1
    legend = ana.locator("#away-legend")
    assert legend.is_visible() and legend.inner_text() == "‖ away: not connected to the table right now"
    assert mark.get_attribute("title") == legend.inner_text()  # the mark explains itself on hover too
    assert ana.locator('[data-player="ana"] .presence.here').count() == 1  # ana is here: "●"
    shot(ana, "table-away-legend")
    beto = open_page(f"/matches/{match.pk}/", "beto", watch=True)
    beto.wait_for_selector("#match[data-version]")
    ana.wait_for_selector('[data-player="beto"] .presence.here')
    assert ana.locator("#away-legend").count() == 0  # nobody away: no legend
    assert ana.get_attribute('[data-player="beto"] .presence', "aria-label") == "beto is connected"
    beto.context.close()
    ana.wait_for_selector("#away-legend")  # beto gone again: the legend is back
    assert ana.locator('[data-player="beto"] .presence.gone').count() == 1


def test_the_end_screen_shows_the_tournaments_updated_standings(open_page: Any) -> None:
    """The table's result is recorded by the sweep (`tournaments.services.sweep`), which does
    here, in the test, what a lost Celery task leaves to it: no worker runs meanwhile."""
    boss = _user("olga")
    club = club_members.create_club("Club Words", "club-words", boss)
    stages = [{"name": "Suiza", "format": "swiss", "params": {"rounds": 2, "table_size": 2}}]
    tournament = services.create_tournament(club.pk, boss, name="Copa", ruleset="dudo", stages=stages)
    names = ("ana", "beto", "caro", "dani", "eva", "fito", "gabi", "hugo")
    for name in names:
        services.register(tournament.pk, boss, name=name, user=_user(name))
    services.start_tournament(tournament.pk, boss)
    tables = list(Table.objects.filter(round__tournament=tournament).order_by("number"))
    for other in tables[1:]:  # the other tables end first: everyone there has played
        leaver = seat_named(other.match_id, other.seats.order_by("index").last().entry.name)
        matches.submit(other.match_id, leaver, {"type": "abandon"}, f"words-{next(_ids)}")
    assert services.sweep() == len(tables) - 1
    table = tables[0]
    players = list(table.seats.order_by("index").values_list("entry__name", flat=True))
    winner, loser = players
    page = open_page(f"/matches/{table.match_id}/", loser, watch=True, viewport=PHONE)
    page.wait_for_selector("#match[data-version]")
    matches.submit(
        table.match_id, seat_named(table.match_id, loser), {"type": "abandon"}, f"words-{next(_ids)}"
    )
    page.wait_for_selector("#end-screen[data-loaded='true']")  # the result, before its standings
    assert services.sweep() == 1  # the table's result recorded: the end screen asks until it is there
    page.wait_for_selector("#end-screen[data-standings='true']", timeout=20_000)
    shown = page.request.get(page.url.split("/matches/")[0] + f"/api/matches/{table.match_id}/tournament")
    expected = shown.json()["standings"]["rows"]  # what the server says this player sees
    assert len(expected) in (5, 6) and sum(row["mine"] for row in expected) == 1
    rows = page.locator("#end-standings-table tbody tr:not(.gap)")
    assert rows.count() == len(expected)  # the five leaders, and the player's own row if further down
    positions = [row["position"] for row in expected]  # from 0; a gap wherever the places jump
    gap = any(later > earlier + 1 for earlier, later in itertools.pairwise(positions))
    assert page.locator("#end-standings-table tr.gap").count() == int(gap)
    mine = page.locator("#end-standings-table tr.mine")
    assert mine.count() == 1 and mine.inner_text().split("\t")[1] == f"{loser} (You)"
    assert page.inner_text("#end-standings-table tbody tr:first-child td:nth-child(2)") != loser
    assert winner in page.inner_text("#end-standings-table")
    assert page.get_attribute("#end-standings", "href") == f"/tournaments/{tournament.pk}/#t-standings"
    shot(page, "table-end-screen-standings-phone")
    page.set_viewport_size({"width": 1280, "height": 800})
    shot(page, "table-end-screen-standings")
