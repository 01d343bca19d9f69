"""The dispute queue's "Signals" section in a real browser, against the real
server, API, engine and data: a club referee sees a planted pair that never doubts each
other, its hint and its rounds; an evidence link opens the replay at the round's end; the
section speaks Spanish; a player who referees no club sees no club's signals; a dispute's
review lists the signals naming its table's players, the rounds of its own match marked.

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
from tournaments.clubs import members as club_members
from tournaments.models import Membership, Table
from tournaments.services import disputes

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
    club = club_members.create_club("Club Ines", "club-ines", boss)
    club_members.grant_role(club.pk, _user("rafa"), Membership.REFEREE, boss)
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


def test_a_disputes_review_lists_the_signals_naming_its_players(open_page: Any) -> None:
    pair, match_id = _planted()
    dispute = disputes.file_dispute(
        match_id, _user(pair[0]), reason="other", text="Please check this table", round=1
    )
    page = open_page(f"/disputes/{dispute.pk}/", "rafa", watch=True)
    page.wait_for_selector("#d-signals[data-loaded]")
    status = page.inner_text("#d-signals-status")
    count = page.locator("#d-signals li.signal").count()
    assert status.startswith(f"{count} signal{'s name' if count > 1 else ' names'} {', '.join(pair)}, from")
    found = page.locator(f'#d-signals li.signal[data-kind="never-doubts"][data-players="{",".join(pair)}"]')
    assert found.count() == 1 and "without a single dudo" in found.inner_text()
    for item in page.locator("#d-signals li.signal").all():  # each names a player at the table
        assert set((item.get_attribute("data-players") or "").split(",")) & set(pair)
    found.locator("summary").click()
    here = found.locator("li.here")
    assert here.count() >= 3 and here.count() == found.locator(f'a[data-evidence^="{match_id}:"]').count()
    assert here.first.locator(".s-here").inner_text() == "this match"
    shot(page, "signals-dispute-review")

    spanish = open_page(f"/disputes/{dispute.pk}/", "rafa", locale="es", watch=True)
    spanish.wait_for_selector("#d-signals[data-loaded]")
    assert spanish.inner_text("#d-signals-title") == "Señales sobre estos jugadores"
    assert "nombra" in spanish.inner_text("#d-signals-status")

    player = open_page(f"/disputes/{dispute.pk}/", pair[0], watch=True)  # the player sees the dispute only
    player.wait_for_selector("#dispute[data-loaded]")
    assert player.locator("#referee").is_hidden()
