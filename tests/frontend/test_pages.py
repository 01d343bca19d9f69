"""Organiser console, tournament page, scorekeeper import and the Spanish UI, in a real browser."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.frontend.conftest import shot
from tests.live.harness import session_cookie
from tournaments import services
from tournaments.clubs import members as club_members

pytestmark = [pytest.mark.slow]


def test_an_organiser_creates_a_tournament_and_starts_it(open_page: Any) -> None:
    from tournaments.models import Entry

    session_cookie("olga")
    users = get_user_model().objects
    club = club_members.create_club("Club del Cacho", "cacho-club", users.get(username="olga"))
    for name in ("pepa", "lucho"):
        session_cookie(name)
    page = open_page("/organise/", "olga")
    page.wait_for_selector("#create[data-ready]")
    page.wait_for_selector(f'#c-club option[value="{club.pk}"]', state="attached")
    page.fill("#c-name", "Copa de prueba")
    page.select_option("#c-ruleset", "dudo")
    assert page.locator("#c-options .option").count() >= 5  # every option explained
    assert "palifico" in page.inner_text("#c-options").lower()
    page.select_option("#s-0-format", "swiss")
    page.fill("#s-0-rounds", "1")
    page.fill("#s-0-table_size", "2")
    page.fill("#c-turn", "45")
    shot(page, "organiser-create")
    page.click("#c-submit")
    page.wait_for_selector("#manage:not([hidden])")
    for name in ("pepa", "lucho"):
        page.fill("#e-username", name)  # an account, named by its username (the entry takes its name)
        page.click("#e-submit")
        page.wait_for_selector(f'#e-done:has-text("{name}")')
    assert {e.user.username for e in Entry.objects.filter(tournament__name="Copa de prueba")} == {
        "pepa",
        "lucho",
    }
    page.click("#m-start")
    page.wait_for_selector('#m-tables li.table-row a[href^="/matches/"]')
    assert page.get_attribute("#m-status", "data-status") != "registration"
    shot(page, "organiser-started")

    href = page.get_attribute("#m-link", "href")
    public = open_page(href)
    public.wait_for_selector("#tournament[data-loaded]")
    public.wait_for_selector("#t-tree .table-card")
    public.wait_for_selector("[data-live-match]")
    shot(public, "tournament-page")
    public.click("[data-live-match]")
    public.wait_for_selector("#match[data-version]")
    assert public.get_attribute("#match", "data-viewer") == "spectator"


def test_the_scorekeeper_imports_a_record_and_sees_a_refusal(open_page: Any) -> None:
    from tournaments.models import Membership

    session_cookie("sara")
    session_cookie("olga")
    users = get_user_model().objects
    club = club_members.create_club("Club de anotadores", "anotadores", users.get(username="olga"))
    club_members.grant_role(
        club.pk, users.get(username="sara"), Membership.SCOREKEEPER, users.get(username="olga")
    )
    page = open_page("/scorekeeper/", "sara")
    page.wait_for_selector("#sk-tables:not([data-loading])")
    record = {
        "format": "cacho-match/1",
        "game": "alalay",
        "ruleset": "alalay",
        "players": ["ana", "beto"],
        "turns": [
            {"by": "ana", "throw": [2, 3, 4, 5, 6], "score": "straight"},
            {
                "by": "beto",
                "throw": [6, 6, 2, 3, 1],
                "reroll": {"keep": [6, 6, 1], "dice": [6, 6]},
                "turn": [2],
                "score": "four",
            },
        ],
    }
    page.fill("#sk-record", json.dumps(record))
    page.click("#sk-import")
    page.wait_for_selector("#sk-imported")
    shot(page, "scorekeeper-imported")
    # a turn that cannot have happened: six dice thrown
    record["turns"].append({"by": "ana", "throw": [1, 1, 2, 2, 3, 3], "score": "ones"})
    page.fill("#sk-record", json.dumps(record))
    page.click("#sk-import")
    page.wait_for_selector("#error:not([hidden])")
    assert page.get_attribute("#error", "data-code") == "wrong-dice-count"
    assert "turn 3" in page.inner_text("#error")  # where, in words
    shot(page, "scorekeeper-refused")


def test_the_spanish_ui(open_page: Any) -> None:
    page = open_page("/", "ana", locale="es")
    nav = page.inner_text("header nav")
    assert "Clubes" in nav and "Mis partidas" in nav
    page.goto(page.url + "scorekeeper/")
    assert "Anotador" in page.inner_text("h1")
    assert "Importar un archivo de partida" in page.inner_text("main")
    page.wait_for_selector("#sk-tables:not([data-loading])")
    shot(page, "spanish-scorekeeper")


def test_an_organiser_builds_groups_then_playoffs_with_a_check_in(open_page: Any) -> None:
    from tournaments.models import Entry, Tournament

    session_cookie("oscar")
    users = get_user_model().objects
    club_members.create_club("Club de fases", "fases", users.get(username="oscar"))
    page = open_page("/organise/", "oscar", locale="es")
    page.wait_for_selector("#create[data-ready]")
    page.wait_for_selector("#c-club option", state="attached")
    # Spanish titles and help for the options, from GET /api/rulesets
    assert "palifico" in page.inner_text("#c-options").lower()
    assert "Calza fuera de turno" in page.inner_text("#c-options")
    page.fill("#c-name", "Copa por fases")
    page.click("#preset-groups-playoffs")
    assert page.locator("#stage-list .stage").count() == 2
    assert page.input_value("#s-0-format") == "round_robin"
    assert page.input_value("#s-1-format") == "single_elimination"
    page.fill("#s-0-groups", "2")
    page.fill("#s-0-per_group", "1")
    page.fill("#s-0-wildcards", "2")
    page.click("#add-stage")
    assert page.locator("#stage-list .stage").count() == 3
    page.click("#s-2-remove")
    assert page.locator("#stage-list .stage").count() == 2
    page.fill("#c-checkin", "2099-01-01T20:00")
    # the playoffs' match for third place, and points by place instead of the default share
    assert "tercer puesto" in page.inner_text("#s-1-third_place-help")
    page.check("#s-1-third_place")
    assert page.input_value("#c-scale") == "share" and "⅔" in page.inner_text("#c-scale-help")
    assert page.is_disabled('#c-scale option[value="reported"]')
    page.select_option("#c-scale", "fixed")
    page.fill("#c-fixed", "10, 7, 5, 3")
    shot(page, "organiser-stages")
    page.click("#c-submit")
    page.wait_for_selector("#manage:not([hidden])")
    page.wait_for_selector("#m-stages li[data-stage='2']")
    tournament = Tournament.objects.get(name="Copa por fases")
    plan = tournament.stage_plan
    assert [s["format"] for s in plan] == ["round_robin", "single_elimination"]
    assert plan[0]["params"]["groups"] == 2
    assert plan[0]["params"]["advance"] == {"per_group": 1, "wildcards": 2}
    assert "advance" not in plan[1]["params"] and plan[1]["params"]["third_place"] is True
    assert tournament.standings_config == {"scale": "fixed", "fixed": [10, 7, 5, 3]}
    assert tournament.checkin_deadline is not None and tournament.checkin_deadline.year == 2099
    # register a guest from the console, check it in at the desk
    page.fill("#e-name", "Pepa")
    page.click("#e-submit")
    page.wait_for_selector('#e-done:has-text("Pepa")')
    entry = Entry.objects.get(tournament=tournament, name="Pepa")
    assert entry.user is None
    page.click("#m-desk-link")
    page.wait_for_selector("#desk[data-ready]")
    page.click(f'#d-entries tr[data-entry="{entry.pk}"] [data-action="check-in"]')
    page.wait_for_selector(f'#d-entries tr[data-entry="{entry.pk}"][data-status="checked_in"]')
    assert "registrado" not in page.inner_text(f'#d-entries tr[data-entry="{entry.pk}"]')
    shot(page, "organiser-stages-created")


def test_a_finished_tournament_shows_its_podium(open_page: Any) -> None:
    """Eight entries, one Swiss round at two tables of four (results chosen by the test: seat 0
    wins, 5 dice left at table 1, 3 at table 2): the winners split on dice left, the seconds
    share third place. The page shows the podium from GET …/ranking, the full ranking, the
    standings with the reason in Spanish, and the export links still work."""
    from tests.tournaments.helpers import play_scripted
    from tournaments.services.standings import final_ranking

    session_cookie("dora")
    owner = get_user_model().objects.get(username="dora")
    club = club_members.create_club("Club del podio", "podio", owner)
    stages = [{"name": "Suiza", "format": "swiss", "params": {"rounds": 1, "table_size": 4}}]
    tournament = services.create_tournament(
        club.pk, owner, name="Copa del podio", ruleset="dudo", stages=stages
    )
    for name in ("Ana", "Beto", "Carla", "Dario", "Elena", "Fito", "Gabi", "Hugo"):
        services.register(tournament.pk, owner, name=name)
    services.start_tournament(tournament.pk, owner)
    play_scripted(tournament)
    names = {e.pk: e.name for e in tournament.entries.all()}
    by_place: dict[int, list[str]] = {}
    for placing in final_ranking(tournament):
        by_place.setdefault(placing.place, []).append(names[placing.entry_id])
    assert [len(by_place[p]) for p in (1, 2, 3)] == [1, 1, 2]

    page = open_page(f"/tournaments/{tournament.pk}/", locale="es")
    page.wait_for_selector("#tournament[data-loaded]")
    page.wait_for_selector("#t-final:not([hidden]) #t-podium li.step")
    for place in (1, 2, 3):
        step = page.locator(f'#t-podium li.step[data-place="{place}"]')
        assert sorted(step.locator(".names li").all_inner_texts()) == sorted(by_place[place])
    third = page.locator('#t-podium li.step[data-place="3"]')
    assert third.get_attribute("data-shared") == "" and "compartido" in third.inner_text()
    assert page.locator('#t-podium li.step[data-place="1"]').get_attribute("data-shared") is None
    # the podium stands above the standings; the full ranking, best first
    podium_y = page.locator("#t-podium").bounding_box()["y"]
    assert podium_y < page.locator("#t-standings").bounding_box()["y"]
    ranking = page.locator("#t-ranking tbody tr")
    assert ranking.count() == 8 and ranking.first.locator("td").first.inner_text() == "1"
    assert "Puesto" in page.inner_text("#t-ranking thead")
    standings = page.inner_text("#t-standings")
    assert "por delante de" in standings and "dados restantes" in standings and "0,67" in standings
    shot(page, "tournament-podium")

    csv_href = page.get_attribute('.exports a[href$="/standings/csv"]', "href")
    response = page.request.get(page.url.split("/tournaments/")[0] + csv_href)
    assert response.ok
    header, first = response.text().lstrip("\ufeff").splitlines()[:2]
    assert header.startswith("Puesto,Participante,") and first.split(",")[:2] == ["1", by_place[1][0]]


def test_a_running_grouped_stage_shows_each_entrys_group(open_page: Any) -> None:
    from tests.tournaments.helpers import finish_round

    session_cookie("gus")
    owner = get_user_model().objects.get(username="gus")
    club = club_members.create_club("Club de grupos", "grupos", owner)
    stages = [{"name": "Grupos", "format": "round_robin", "params": {"groups": 2, "table_size": 2}}]
    tournament = services.create_tournament(club.pk, owner, name="Liga", ruleset="dudo", stages=stages)
    for name in ("Ana", "Beto", "Carla", "Dario", "Elena", "Fito"):
        services.register(tournament.pk, owner, name=name)
    services.start_tournament(tournament.pk, owner)
    finish_round(tournament)

    page = open_page(f"/tournaments/{tournament.pk}/")
    page.wait_for_selector("#tournament[data-loaded]")
    page.wait_for_selector("#t-standings tbody tr[data-group]")
    assert page.is_hidden("#t-final")  # no podium while the tournament runs
    header = page.locator("#t-standings thead th").all_inner_texts()
    assert header[:3] == ["Place", "Entry", "Group"] and "Dice left" in header
    groups = [row.get_attribute("data-group") for row in page.locator("#t-standings tbody tr").all()]
    assert groups == ["1", "1", "1", "2", "2", "2"]


def test_a_club_referee_watching_a_table_sees_every_die_and_site_staff_does_not(open_page: Any) -> None:
    users = get_user_model()
    organiser = users.objects.create(username="org-watch")
    club = club_members.create_club("Club", "club-watch", organiser)
    club_members.grant_role(club.pk, users.objects.create(username="rita"), "referee", organiser)
    tournament = services.create_tournament(
        club.pk,
        organiser,
        name="Jueves",
        ruleset="dudo",
        stages=[{"name": "swiss", "format": "swiss", "params": {"rounds": 1, "table_size": 2}}],
    )
    for name in ("ana", "beto"):
        services.register(tournament.pk, organiser, name=name, user=users.objects.create(username=name))
    services.start_tournament(tournament.pk, organiser)
    match_id = tournament.rounds.get().tables.get().match_id

    referee = open_page(f"/matches/{match_id}/", "rita")
    referee.wait_for_selector("#match[data-version]")
    assert referee.locator("#referee-note").is_visible()
    assert referee.locator("svg.die").count() == 10  # both players' five dice, hidden from the table
    shot(referee, "referee-watching")
    staff = open_page(f"/matches/{match_id}/", "staff-watch", staff=True)
    staff.wait_for_selector("#match[data-version]")
    assert staff.locator("#spectator-note").is_visible() and staff.locator("svg.die").count() == 0


def test_the_api_reference_renders_offline(open_page: Any) -> None:
    """Swagger UI and ReDoc come with the project's static files (this browser has no internet)."""
    swagger = open_page("/api/docs/")
    swagger.wait_for_selector(".swagger-ui .info .title")
    assert "Cacho API" in swagger.inner_text(".swagger-ui .info .title")
    swagger.wait_for_selector(".opblock")
    # A long API is drawn as it scrolls into view: the first operations now, the last at the end.
    assert swagger.locator(".opblock").count() > 5
    swagger.keyboard.press("End")
    swagger.wait_for_selector(".opblock-summary-path:has-text('/api/tournaments/')")
    shot(swagger, "api-swagger")
    redoc = open_page("/api/redoc/")
    redoc.wait_for_selector("h1:has-text('Cacho API')")
