"""Standings exports a director can hand out: CSV, XLSX, JSON and the printed page, in the
request's language, the final ranking first, numbers for people, translated tiebreak
reasons, a group column, the log head in the file name and a metadata section.

The results are chosen by the test (`helpers.play_scripted`: seat 0 wins every table, its
winner keeps 5 dice at table 1 and 3 elsewhere), so every figure can be predicted."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from django.utils import translation
from rest_framework.test import APIClient

from tests.tournaments.helpers import club_with_organiser, finish_round, play_scripted
from tournaments import exports
from tournaments.models import Table, Tournament
from tournaments.services import create_tournament, register, start_tournament

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite_too]

EVIL = '=HYPERLINK("http://evil.example","x")'
NAMES = ["Ana", "Beto", "Carla", "Dario", "Elena", "Fito", "Gabi", "Hugo"]
SWISS = [{"name": "Suiza", "format": "swiss", "params": {"rounds": 1, "table_size": 4}}]
GROUPS = [{"name": "Grupos", "format": "round_robin", "params": {"groups": 2, "table_size": 2}}]
GROUPS_THEN_PLAYOFFS = [
    {
        "name": "Grupos",
        "format": "round_robin",
        "params": {"groups": 2, "table_size": 2, "advance": {"per_group": 2}},
    },
    {"name": "Playoffs", "format": "single_elimination", "params": {}},
]


def tournament_of(make_user: Any, stages: list[dict[str, Any]], names: list[str] = NAMES) -> Tournament:
    club, owner = club_with_organiser(make_user)
    tournament = create_tournament(club.pk, owner, name="Copa Ñandú 2026", ruleset="dudo", stages=stages)
    for name in names:
        register(tournament.pk, owner, name=name)
    start_tournament(tournament.pk, owner)
    tournament.refresh_from_db()
    return tournament


def get(tournament: Tournament, path: str = "", language: str = "en") -> Any:
    return APIClient().get(f"/api/tournaments/{tournament.pk}/standings{path}", HTTP_ACCEPT_LANGUAGE=language)


def csv_rows(tournament: Tournament, language: str = "en", query: str = "") -> list[list[str]]:
    response = get(tournament, f"/csv{query}", language)
    assert response.status_code == 200, response.content
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


def seated(tournament: Tournament) -> list[list[str]]:
    """Each table of the first round, its entries' names in seat order."""
    first = tournament.rounds.order_by("number").first()
    assert first is not None
    return [[s.entry.name for s in t.seats.order_by("index")] for t in first.tables.order_by("number")]


def test_the_csv_is_the_final_ranking_with_human_headers_and_numbers(make_user: Any) -> None:
    tournament = tournament_of(make_user, SWISS)
    (one, two) = seated(tournament)
    play_scripted(tournament)
    english = csv_rows(tournament, "en")
    assert english[0] == [
        "Place",
        "Entry",
        "Played",
        "Points",
        "Eliminations made",
        "Dice left",
        "Head-to-head",
        "Opponents' points (Buchholz)",
        "Tiebreak",
    ]
    # Winners 1 point, seconds ⅔, thirds ⅓, last 0; the winners split on dice left (5 vs 3),
    # the others share their places (equal on everything).
    assert english[1] == [
        "1",
        one[0],
        "1",
        "1",
        "3",
        "5",
        "0",
        "1",
        f"ahead of {two[0]} on dice left (5 vs 3)",
    ]
    assert english[2] == ["2", two[0], "1", "1", "3", "3", "0", "1", ""]
    assert english[3][0] == english[4][0] == "3" and english[3][3] == "0.67" and english[3][7] == "1.33"
    assert [r[0] for r in english[1:]] == ["1", "2", "3", "3", "5", "5", "7", "7"]
    assert [r[1] for r in english[1:]] == [item["name"] for item in get(tournament).json()["final_ranking"]]

    spanish = csv_rows(tournament, "es")
    assert spanish[0][:4] == ["Puesto", "Participante", "Jugadas", "Puntos"]
    assert spanish[0][4:] == [
        "Eliminaciones hechas",
        "Dados restantes",
        "Enfrentamiento directo",
        "Puntos de los rivales (Buchholz)",
        "Desempate",
    ]
    assert spanish[1][-1] == f"por delante de {two[0]} en dados restantes (5 a 3)"
    by_cookie = APIClient()
    by_cookie.cookies["django_language"] = "es"  # the language chosen on the site
    spanish_csv = by_cookie.get(f"/api/tournaments/{tournament.pk}/standings/csv").content
    assert spanish_csv.startswith("\ufeffPuesto,".encode())
    assert not any(cell.startswith("#") for row in spanish for cell in row[:1])


def test_a_text_cell_that_looks_like_a_formula_stays_text(make_user: Any) -> None:
    tournament = tournament_of(make_user, SWISS, [*NAMES[:6], "-minus", EVIL])
    play_scripted(tournament)
    names = [row[1] for row in csv_rows(tournament)[1:]]
    assert "'" + EVIL in names and "'-minus" in names and EVIL not in names

    content = get(tournament, "/xlsx").content
    book = openpyxl.load_workbook(io.BytesIO(content))
    cells = [c for row in book.worksheets[0].iter_rows(min_col=2, max_col=2) for c in row]
    evil = next(c for c in cells if c.value == EVIL)
    assert evil.data_type == "s"  # the text itself, not a formula and not quoted
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        sheets = [n for n in archive.namelist() if n.startswith("xl/worksheets/")]
        assert not any(re.search(rb"<f[ >]", archive.read(n)) for n in sheets)


def test_the_file_names_carry_the_log_head(make_user: Any) -> None:
    tournament = tournament_of(make_user, SWISS)
    play_scripted(tournament)
    tournament.refresh_from_db()
    for kind in ("csv", "xlsx"):
        disposition = get(tournament, f"/{kind}")["Content-Disposition"]
        assert disposition == f'attachment; filename="copa-nandu-2026-{tournament.head_hash[:12]}.{kind}"'


def test_the_xlsx_sheets_widths_and_metadata(make_user: Any) -> None:
    tournament = tournament_of(make_user, GROUPS_THEN_PLAYOFFS, [*NAMES[:7], "Maximiliano Fuentealba"])
    play_scripted(tournament)
    tournament.refresh_from_db()
    book = openpyxl.load_workbook(io.BytesIO(get(tournament, "/xlsx").content))
    assert book.sheetnames == ["Ranking", "1. Grupos", "2. Playoffs", "Metadata"]
    first = book.worksheets[0]
    rows = list(first.iter_rows(values_only=True))
    assert [list(r) for r in rows] == csv_as_cells(csv_rows(tournament))
    assert first.freeze_panes == "A2" and first["A1"].font.b and not first["A2"].font.b
    # as wide as the longest text, plus a margin
    assert first.column_dimensions["B"].width >= len("Maximiliano Fuentealba") + 2
    assert first.column_dimensions["A"].width >= len("Place") + 2
    assert isinstance(rows[1][0], int) and isinstance(rows[1][4], int)  # numbers, as numbers

    groups = list(book["1. Grupos"].iter_rows(values_only=True))
    assert groups[0][:3] == ("Place", "Entry", "Group") and {r[2] for r in groups[1:]} == {1, 2}
    meta = {r[0]: r[1] for r in book["Metadata"].iter_rows(values_only=True) if r[0]}
    assert meta["Event log head"] == tournament.head_hash and meta["Log version"] == tournament.version
    assert meta["Tournament"] == "Copa Ñandú 2026" and meta["Ruleset"] == "Dudo" and meta["Options hash"]
    assert meta["Generated at"] and meta["Club"]
    stage_list = [r for r in book["Metadata"].iter_rows(values_only=True) if isinstance(r[0], int)]
    assert [(r[0], r[1]) for r in stage_list] == [(1, "Grupos"), (2, "Playoffs")]

    spanish = openpyxl.load_workbook(io.BytesIO(get(tournament, "/xlsx", "es").content))
    assert spanish.sheetnames == ["Clasificación", "1. Grupos", "2. Playoffs", "Metadatos"]


def csv_as_cells(rows: list[list[str]]) -> list[list[Any]]:
    """The CSV's text as the XLSX holds it: numbers as numbers, empty cells as None."""

    def cell(text: str) -> Any:
        if text == "":
            return None
        if re.fullmatch(r"-?\d+", text):
            return int(text)
        if re.fullmatch(r"-?\d+\.\d+", text):
            return float(text)
        return text

    return [rows[0], *([cell(t) for t in row] for row in rows[1:])]


def test_a_grouped_round_robin_has_a_group_column(make_user: Any) -> None:
    tournament = tournament_of(make_user, GROUPS, NAMES[:6])
    finish_round(tournament)
    running = csv_rows(tournament, "es")  # the stage in play, group by group
    assert running[0][:3] == ["Puesto", "Participante", "Grupo"]
    assert [r[2] for r in running[1:]] == ["1", "1", "1", "2", "2", "2"]
    assert [r[0] for r in running[1:4]] == ["1", "2", "3"]
    data = get(tournament).json()
    assert data["final_ranking"] == [] and {r["group"] for r in data["standings"]} == {1, 2}

    play_scripted(tournament)
    final = csv_rows(tournament)
    assert final[0][:3] == ["Place", "Entry", "Group"] and "Stage reached" not in final[0]
    # Group winners first (a shared group place counts for all who share it), then the
    # runners-up, …: by the place each entry holds in its group.
    standings = get(tournament).json()
    group_place = {r["name"]: r["rank"] for r in standings["standings"]}
    in_order = [group_place[r[1]] for r in final[1:]]
    assert in_order == sorted(in_order) and {r[2] for r in final[1:] if group_place[r[1]] == 1} == {"1", "2"}


def test_groups_then_playoffs_say_the_stage_reached(make_user: Any) -> None:
    tournament = tournament_of(make_user, GROUPS_THEN_PLAYOFFS)
    play_scripted(tournament)
    rows = csv_rows(tournament)
    assert rows[0][:4] == ["Place", "Entry", "Group", "Stage reached"]
    assert [r[3] for r in rows[1:]] == ["Playoffs"] * 4 + ["Grupos"] * 4
    assert [r[2] for r in rows[1:5]] == [""] * 4 and {r[2] for r in rows[5:]} == {"1", "2"}
    assert [r[0] for r in rows[1:]] == ["1", "2", "3", "3", "5", "5", "7", "7"]
    assert csv_rows(tournament, "es")[0][3] == "Fase alcanzada"
    # `?stage=1`: that stage's standings instead of the ranking
    groups = csv_rows(tournament, query="?stage=1")
    assert groups[0][:3] == ["Place", "Entry", "Group"] and len(groups) == 9


def test_the_json_keeps_its_keys_and_adds_metadata_and_reasons(make_user: Any) -> None:
    tournament = tournament_of(make_user, SWISS)
    (one, two) = seated(tournament)
    play_scripted(tournament)
    tournament.refresh_from_db()
    data = get(tournament, language="es").json()
    assert {
        "head_hash",
        "log_version",
        "generated_at",
        "stage",
        "criteria",
        "standings",
        "final_ranking",
    } <= set(data)
    assert data["final_ranking"][0] == {"place": 1, "entry": data["standings"][0]["entry"], "name": one[0]}
    top = data["standings"][0]
    assert top["tiebreak"] == "dice_left" and top["tiebreak_values"] == [5, 3]
    assert top["tiebreak_text"] == f"por delante de {two[0]} en dados restantes (5 a 3)"
    assert top["tiebreak_reason"].startswith("ahead of")  # the core's, for logs
    meta = data["metadata"]
    assert meta["head_hash"] == tournament.head_hash and meta["log_version"] == tournament.version
    assert meta["tournament"] == "Copa Ñandú 2026" and meta["club"] and meta["ruleset"] == "dudo"
    assert meta["options_hash"] == tournament.options_hash and meta["generated_at"]
    assert meta["stages"] == [
        {"number": 1, "name": "Suiza", "format": "swiss", "status": "finished", "format_name": "Suizo"}
    ]


def test_the_print_page_puts_the_ranking_first_and_the_metadata_in_its_footer(make_user: Any) -> None:
    tournament = tournament_of(make_user, GROUPS_THEN_PLAYOFFS)
    play_scripted(tournament)
    tournament.refresh_from_db()
    page = get(tournament, "/print", "es")
    assert page.status_code == 200
    html = page.content.decode()
    # Its styles come from a file (the CSP refuses inline ones), print rules included.
    assert "tournaments/standings_print.css" in html
    from django.contrib.staticfiles import finders

    stylesheet = finders.find("tournaments/standings_print.css")
    assert stylesheet is not None and "@media print" in Path(stylesheet).read_text()
    first_table = html[html.index("<table") : html.index("</table>")]
    first_row = re.search(r"<tbody>\s*<tr>(.*?)</tr>", first_table, re.S)
    assert first_row is not None
    assert re.findall(r"<td[^>]*>(.*?)</td>", first_row.group(1))[0] == "1"
    assert '<th class="num" scope="col">Puesto</th>' in first_table and "Fase alcanzada" in first_table
    assert html.index("Clasificación final") < html.index("Playoffs")
    footer = html[html.index("<footer") :]
    assert tournament.head_hash in footer and "Versión del registro" in footer and "Generado el" in footer
    # the shown stage per group: the playoffs are one table
    assert html.count("<table") == 2


def test_the_print_page_of_a_running_grouped_stage_shows_each_group(make_user: Any) -> None:
    tournament = tournament_of(make_user, GROUPS, NAMES[:6])
    html = get(tournament, "/print").content.decode()
    assert html.count("<table") == 2 and "Grupos · Group 1" in html and "Grupos · Group 2" in html
    assert "Final ranking" not in html


@pytest.mark.parametrize("kind", ["", "/csv", "/xlsx", "/print"])
def test_a_bad_stage_gets_a_code(make_user: Any, kind: str) -> None:
    tournament = tournament_of(make_user, SWISS)
    bad = get(tournament, f"{kind}?stage=abc")
    assert bad.status_code == 400 and bad.json()["code"] == "stage-invalid"
    unknown = get(tournament, f"{kind}?stage=9")
    assert unknown.status_code == 404 and unknown.json()["code"] == "stage-unknown"


def test_the_tiebreak_text_in_both_languages() -> None:
    row = {"tiebreak": "head_to_head", "tiebreak_against": 7, "tiebreak_values": [1.5, 0.6667]}
    names = {7: "Ana"}
    with translation.override("en"):
        assert exports.tiebreak_text(row, names) == "ahead of Ana on head-to-head (1.5 vs 0.67)"
    with translation.override("es"):
        spanish = exports.tiebreak_text(row, names)
    assert spanish == "por delante de Ana en enfrentamiento directo (1.5 a 0.67)"
    untied = {"tiebreak": "", "tiebreak_against": None, "tiebreak_values": None}
    assert exports.tiebreak_text(untied, names) == ""


def test_an_unstarted_tournament_exports_a_header_alone(make_user: Any) -> None:
    club, owner = club_with_organiser(make_user)
    tournament = create_tournament(club.pk, owner, name="Later", ruleset="dudo", stages=SWISS)
    assert csv_rows(tournament)[0][:2] == ["Place", "Entry"] and len(csv_rows(tournament)) == 1
    assert get(tournament, "/print").status_code == 200 and get(tournament, "/xlsx").status_code == 200
    assert Table.objects.filter(round__tournament=tournament).count() == 0
