"""What each person sees and its polish: the menu shows a page only to the roles
it serves, an unknown page is the site's 404 page (the API keeps its JSON), the CSV starts
with a byte-order mark and the XLSX columns fit the names."""

from __future__ import annotations

import io
from typing import Any

import openpyxl
import pytest
from django.test import Client

from tests.tournaments.helpers import club_with_organiser, play_scripted
from tournaments.clubs.members import grant_role as add_member
from tournaments.models import Membership, Tournament
from tournaments.services import create_tournament, register, start_tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]

ONE_ROUND = [{"name": "Suiza", "format": "swiss", "params": {"rounds": 1, "table_size": 4}}]
LONG = "Maximiliano Wenceslao Fuentealba"
WIDE = "王小明"


def finished(make_user: Any, names: list[str]) -> Tournament:
    club, owner = club_with_organiser(make_user)
    tournament = create_tournament(club.pk, owner, name="Copa Ñandú", ruleset="dudo", stages=ONE_ROUND)
    for name in names:
        register(tournament.pk, owner, name=name)
    start_tournament(tournament.pk, owner)
    play_scripted(tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.FINISHED
    return tournament


def menu(user: Any) -> str:
    client = Client()
    client.force_login(user)
    page = client.get("/ratings/", HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    html = page.content.decode()
    return html[html.index('id="site-nav"') : html.index("</nav>")]


def test_the_menu_shows_each_page_to_the_roles_it_serves(make_user: Any) -> None:
    club, owner = club_with_organiser(make_user)
    player, referee, keeper = make_user("pia"), make_user("rafa"), make_user("kiko")
    add_member(club.pk, player, Membership.PLAYER, owner)
    add_member(club.pk, referee, Membership.REFEREE, owner)
    add_member(club.pk, keeper, Membership.SCOREKEEPER, owner)

    pages = ("/organise/", "/scorekeeper/", "/disputes/")
    shown = {
        who: {page for page in pages if f'href="{page}"' in menu(user)}
        for who, user in (("player", player), ("referee", referee), ("keeper", keeper), ("owner", owner))
    }
    assert shown == {
        "player": set(),
        "referee": {"/organise/", "/scorekeeper/", "/disputes/"},
        "keeper": {"/scorekeeper/"},
        "owner": {"/organise/", "/scorekeeper/", "/disputes/"},
    }
    assert 'href="/ratings/"' in menu(player) and 'href="/me/"' in menu(player)


@pytest.mark.parametrize("debug", [True, False])
def test_an_unknown_page_is_the_sites_404_page_and_the_api_keeps_its_json(
    make_user: Any, settings: Any, debug: bool
) -> None:
    settings.DEBUG = debug
    club, _owner = club_with_organiser(make_user)
    for path in (
        "/matches/not-a-match/",
        "/matches/00000000-0000-0000-0000-000000000000/",
        "/matches/not-a-match/replay",
        "/clubs/9999/",
        "/tournaments/9999/",
        "/no-such-page/",
    ):
        answer = Client().get(path, HTTP_ACCEPT_LANGUAGE="en")
        assert answer.status_code == 404, path
        assert answer["Content-Type"].startswith("text/html"), path
        html = answer.content.decode()
        assert 'data-status="404"' in html and "Page not found" in html and 'id="site-nav"' in html, path
    assert Client().get(f"/clubs/{club.pk}/").status_code == 200

    spanish = Client().get("/clubs/9999/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Página no encontrada" in spanish

    for path in ("/api/no-such-thing", "/api/tournaments/9999"):
        answer = Client().get(path, HTTP_ACCEPT_LANGUAGE="en")
        assert answer.status_code == 404 and answer["Content-Type"] == "application/json"
        assert set(answer.json()) == {"code", "message"} and answer.json()["code"] == "not-found"


def test_the_csv_starts_with_a_byte_order_mark(make_user: Any) -> None:
    tournament = finished(make_user, ["María", "Ñandú", "José", "Inés"])
    body = Client().get(f"/api/tournaments/{tournament.pk}/standings/csv", HTTP_ACCEPT_LANGUAGE="en").content
    assert body.startswith(b"\xef\xbb\xbfPlace,Entry,")
    text = body.decode("utf-8-sig")
    assert {"María", "Ñandú", "José", "Inés"} <= {line.split(",")[1] for line in text.splitlines()[1:]}


def test_the_xlsx_columns_fit_the_names(make_user: Any) -> None:
    tournament = finished(make_user, [LONG, WIDE, "Ana", "WWW MMM"])
    path = f"/api/tournaments/{tournament.pk}/standings/xlsx"
    content = Client().get(path, HTTP_ACCEPT_LANGUAGE="en").content
    book = openpyxl.load_workbook(io.BytesIO(content))
    ranking = book.worksheets[0]
    names = [row[1] for row in ranking.iter_rows(min_row=2, values_only=True)]
    assert set(names) == {LONG, WIDE, "Ana", "WWW MMM"}
    width = ranking.column_dimensions["B"].width
    # wider than the characters counted: capitals, M and W take more than a digit
    assert width >= len(LONG) + 4
    assert width >= 2 * len(WIDE) + 2
    for column, cell in zip("ABCDEFGHI", next(ranking.iter_rows(max_row=1)), strict=False):
        if cell.value:
            assert ranking.column_dimensions[column].width >= len(str(cell.value)) + 2, cell.value
    meta = book["Metadata"]
    head = next(row[1] for row in meta.iter_rows(values_only=True) if row[0] == "Event log head")
    assert len(head) == 64 and meta.column_dimensions["B"].width >= 64
