"""The dispute queue's "Signals" section (issue #23) in a real browser, against the real
server, API, engine and data: a club referee sees a planted pair that never doubts each
other, its hint and its rounds; an evidence link opens the replay at the round's end; the
section speaks Spanish; a player who referees no club sees no club's signals.

The data is made as the tournament tests make it: a 1v1 Swiss whose first table colludes
(both players only raise and end every round with a calza) and whose second doubts every
bid, played through the match write path (`tests.tournaments.integrity`)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.frontend.conftest import shot
from tests.live.harness import session_cookie
from tests.tournaments.integrity import play_tables
from tournaments import services
from tournaments.models import Membership, Table

pytestmark = [pytest.mark.slow]

ONE_ROUND_1V1 = [{"name": "Suiza", "format": "swiss", "params": {"rounds": 1, "table_size": 2}}]
PLAYERS = ("lia", "max", "noa", "teo")


def _user(name: str) -> Any:
    session_cookie(name)
    return get_user_model().objects.get(username=name)


def _planted() -> tuple[list[str], Any]:
    """Two one-round Swiss tournaments of the club: the first's table 1 colludes, and so
    does that pair if the second seats it together again; every other table doubts."""
    boss = _user("ines")
    club = services.create_club("Club Ines", "club-ines", boss)
    services.add_member(club.pk, _user("rafa"), Membership.REFEREE, boss)
    pair: list[str] = []
    colluding = None  # the first tournament's colluding match
    for name in ("Copa", "Revancha"):
        tournament = services.create_tournament(
            club.pk, boss, name=name, ruleset="dudo", stages=ONE_ROUND_1V1
        )
        for player in PLAYERS:
            services.register(tournament.pk, boss, name=player, user=_user(player))
        services.start_tournament(tournament.pk, boss)
        tables = Table.objects.filter(round__tournament=tournament).order_by("number")
        if colluding is None:
            pair, colluding = (
                sorted(tables[0].seats.values_list("entry__name", flat=True)),
                tables[0].match_id,
            )
        play_tables(tables, pair)
    return pair, colluding


def test_the_queue_shows_a_planted_signal_with_its_rounds(open_page: Any) -> None:
    pair, match_id = _planted()
    page = open_page("/disputes/", "rafa", watch=True)  # no console error, no failed request
    page.wait_for_selector("#signals[data-loaded]")
    found = page.locator(f'li.signal[data-kind="never-doubts"][data-players="{",".join(pair)}"]')
    assert found.count() == 1
    text = found.inner_text()
    assert "Never doubt each other" in text and pair[0] in text and pair[1] in text
    assert "without a single dudo" in text
    assert "never an automatic penalty" in page.inner_text("#signals .help")
    found.locator("summary").click()
    links = found.locator(f'a[data-evidence^="{match_id}:"]')
    assert links.count() >= 3
    href = links.first.get_attribute("href")
    assert href.startswith(f"/matches/{match_id}/replay#v=")
    shot(page, "signals-queue-planted")

    links.first.click()
    page.wait_for_url(f"**{href}")
    page.wait_for_selector("#replay[data-version]")
    assert page.get_attribute("#replay", "data-version") == href.split("#v=")[1]
    shot(page, "signals-evidence-replay")

    spanish = open_page("/disputes/", "rafa", locale="es")
    spanish.wait_for_selector("#signals[data-loaded]")
    assert "Señales" in spanish.inner_text("#signals-title")
    hint = spanish.inner_text(f'li.signal[data-kind="never-doubts"][data-players="{",".join(pair)}"]')
    assert "ni una sola vez" in hint and "No se dudan nunca" in hint
    assert "nunca una sanción automática" in spanish.inner_text("#signals .help")
    shot(spanish, "signals-queue-es")

    player = open_page("/disputes/", pair[0], watch=True)
    player.wait_for_selector("#signals[data-loaded]")
    assert player.locator("li.signal").count() == 0
    assert player.get_attribute("#s-status", "data-count") == "0"
