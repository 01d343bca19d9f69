"""The leaderboards and a player's ratings in a real browser, in English and Spanish: the
overall and the club leaderboard (provisional ratings marked), the player's page with its
server-rendered SVG history (one point per rated table) and head-to-head records, and the
player's own page linking to them."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.frontend.conftest import shot
from tests.live.harness import session_cookie
from tests.tournaments.ratings.fixtures import rate_tables
from tournaments import services
from tournaments.clubs import members as club_members
from tournaments.models import Membership

pytestmark = [pytest.mark.slow]

NAMES = ("ana", "beto", "caro", "dani", "eva")


def rated_players() -> Any:
    for name in NAMES:
        session_cookie(name)
    users = {name: get_user_model().objects.get(username=name) for name in NAMES}
    rate_tables(users)
    club = club_members.create_club("Club Potosí", "potosi", users["ana"])
    club_members.grant_role(club.pk, users["eva"], Membership.PLAYER, users["ana"])
    return club


def test_the_leaderboards_in_english_and_spanish(open_page: Any) -> None:
    club = rated_players()
    page = open_page("/ratings/", watch=True)
    rows = page.locator("#leaderboard tbody tr")
    assert rows.count() == 5
    assert page.get_attribute("#leaderboard tbody tr:first-child", "data-username") == "ana"
    eva = page.locator('tr[data-username="eva"]')
    assert "provisional" in (eva.get_attribute("class") or "") and "provisional" in eva.inner_text()
    assert "provisional" not in page.locator('tr[data-username="beto"]').inner_text()
    assert page.get_attribute('.families a[data-family="dudo"]', "aria-current") == "page"
    shot(page, "ratings-leaderboard")

    page.click('.families a[data-family="alalay"]')
    page.wait_for_selector("#leaderboard-empty")

    club_page = open_page(f"/ratings/?club={club.pk}", locale="es", watch=True)
    assert club_page.inner_text("#ratings-title") == "Clasificación de Club Potosí"
    names = [r.get_attribute("data-username") for r in club_page.locator("#leaderboard tbody tr").all()]
    assert names == ["ana", "eva"]
    assert "provisional" in club_page.locator('tr[data-username="eva"]').inner_text()
    assert "Jugador" in club_page.inner_text("#leaderboard thead")
    shot(club_page, "ratings-leaderboard-club-es")


def test_a_players_page_plots_their_rating_history(open_page: Any) -> None:
    rated_players()
    page = open_page("/players/caro/", watch=True)
    dudo = page.locator('section.rating[data-family="dudo"]')
    points = dudo.locator("svg.rating-history circle.point")
    assert points.count() == 5  # one point per rated table
    assert "5 rated tables" in dudo.locator(".rating-figure").inner_text()
    last = float(points.nth(4).get_attribute("data-rating") or "nan")
    assert f"{last:.1f}" == dudo.locator(".rating-value").inner_text()
    assert dudo.locator("svg.rating-history polyline.line").get_attribute("points").count(",") == 5
    h2h = dudo.locator('.head-to-head tr[data-opponent="dani"] td')
    assert [h2h.nth(i).inner_text() for i in range(5)] == ["dani", "5", "3", "1", "1"]
    shot(page, "ratings-player")

    spanish = open_page("/players/eva/", locale="es", watch=True)
    section = spanish.locator('section.rating[data-family="dudo"]')
    assert section.locator("circle.point").count() == 1
    assert "provisional" in section.inner_text() and "Cara a cara" in section.inner_text()
    assert "1 mesa puntuada" in section.locator(".rating-figure").inner_text()  # one table, singular
    assert "Historial" in (section.locator("svg > title").text_content() or "")
    shot(spanish, "ratings-player-es")

    mine = open_page("/me/", "caro", watch=True)
    assert mine.locator('#my-ratings li[data-family="dudo"]').count() == 1
    mine.click('#my-ratings li[data-family="dudo"] a')
    mine.wait_for_selector("#player-ratings svg.rating-history")
    assert mine.inner_text("#player-name") == "caro"


def test_an_organiser_fills_the_seeding_ratings_from_the_platform(open_page: Any) -> None:
    from tournaments.models import Entry

    club = rated_players()
    organiser = get_user_model().objects.get(username="ana")
    stages = [{"name": "swiss", "format": "swiss", "params": {"rounds": 1, "table_size": 2}}]
    tournament = services.create_tournament(
        club.pk, organiser, name="Copa sembrada", ruleset="dudo", stages=stages, seeding_method="rating"
    )
    for name in ("beto", "eva"):
        services.register(
            tournament.pk, organiser, name=name, user=get_user_model().objects.get(username=name)
        )
    services.register(tournament.pk, organiser, name="invitado")
    page = open_page(f"/organise/{tournament.pk}/entries/", "ana", locale="es", watch=True)
    page.wait_for_selector("#d-rating-seeding:not([hidden]) #d-rating-list tbody tr")
    entries = dict(Entry.objects.filter(tournament=tournament).values_list("name", "pk"))
    eva = page.locator(f'tr[data-rating-entry="{entries["eva"]}"]')
    assert "provisional" in eva.inner_text()
    assert "provisional" not in page.locator(f'tr[data-rating-entry="{entries["beto"]}"]').inner_text()
    assert "todavía ninguna" in page.locator(f'tr[data-rating-entry="{entries["invitado"]}"]').inner_text()
    page.click("#d-ratings-fill")
    page.wait_for_selector("#d-ratings-done:not(:empty)")
    ratings = dict(Entry.objects.filter(tournament=tournament).values_list("name", "rating"))
    assert ratings["beto"] is not None and ratings["eva"] is not None and ratings["invitado"] is None
    spanish = f"{ratings['beto']:.2f}".rstrip("0").rstrip(".").replace(".", ",")  # "12,5", not "12.5"
    assert spanish in page.locator(f'tr[data-rating-entry="{entries["beto"]}"]').inner_text()
    shot(page, "ratings-desk-seeding-es")
