"""Organiser console, tournament page, scorekeeper import and the Spanish UI, in a real browser."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.frontend.conftest import shot
from tests.live.harness import session_cookie
from tournaments import services

pytestmark = [pytest.mark.slow]


def test_an_organiser_creates_a_tournament_and_starts_it(open_page: Any) -> None:
    session_cookie("olga")
    users = get_user_model().objects
    club = services.create_club("Club del Cacho", "cacho-club", users.get(username="olga"))
    ids = []
    for name in ("pepa", "lucho"):
        session_cookie(name)
        ids.append(users.get(username=name).pk)
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
    for name, user_id in zip(("pepa", "lucho"), ids, strict=True):
        page.fill("#e-name", name)
        page.fill("#e-user", str(user_id))
        page.click("#e-submit")
        page.wait_for_selector(f'#m-entries tr:has-text("{name}")')
    page.click("#m-start")
    page.wait_for_selector('#m-rounds li a[href^="/matches/"]')
    assert page.get_attribute("#m-status", "data-status") != "registration"
    shot(page, "organiser-started")

    href = page.get_attribute("#m-link", "href")
    public = open_page(href)
    public.wait_for_selector("#tournament[data-loaded]")
    public.wait_for_selector("#t-tree svg.tree")
    public.wait_for_selector("[data-live-match]")
    shot(public, "tournament-page")
    public.click("[data-live-match]")
    public.wait_for_selector("#match[data-version]")
    assert public.get_attribute("#match", "data-viewer") == "spectator"


def test_the_scorekeeper_imports_a_record_and_sees_a_refusal(open_page: Any) -> None:
    page = open_page("/scorekeeper/", "sara")
    page.fill("#sk-players", "ana, beto")
    page.select_option("#sk-ruleset", "alalay")
    page.click("#sk-start button")
    page.fill("#t-throw", "2 3 4 5 6")
    page.select_option("#t-box", "straight")
    page.click("#sk-turn button[type=submit]")
    page.select_option("#t-by", "beto")
    page.fill("#t-throw", "6 6 2 3 1")
    page.fill("#t-keep", "6 6 1")
    page.fill("#t-dice", "6 6")
    page.fill("#t-turn", "2")
    page.select_option("#t-box", "four")
    page.click("#sk-turn button[type=submit]")
    page.click("#sk-import")
    page.wait_for_selector("#sk-imported")
    shot(page, "scorekeeper-imported")
    # a turn that cannot have happened: six dice thrown
    record = json.loads(page.input_value("#sk-record"))
    record["turns"].append({"by": "ana", "throw": [1, 1, 2, 2, 3, 3], "score": "ones"})
    page.fill("#sk-record", json.dumps(record))
    page.click("#sk-import")
    page.wait_for_selector("#error:not([hidden])")
    assert page.get_attribute("#error", "data-code")
    shot(page, "scorekeeper-refused")


def test_the_spanish_ui(open_page: Any) -> None:
    page = open_page("/", "ana", locale="es")
    nav = page.inner_text("header nav")
    assert "Clubes" in nav and "Mis partidas" in nav
    page.goto(page.url + "scorekeeper/")
    assert "Balas" in page.inner_text("#t-box")
    assert "Anotador" in page.inner_text("h1")
    shot(page, "spanish-scorekeeper")


def test_an_organiser_builds_groups_then_playoffs_with_a_check_in(open_page: Any) -> None:
    from tournaments.models import Entry, Tournament

    session_cookie("oscar")
    users = get_user_model().objects
    services.create_club("Club de fases", "fases", users.get(username="oscar"))
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
    shot(page, "organiser-stages")
    page.click("#c-submit")
    page.wait_for_selector("#manage:not([hidden])")
    page.wait_for_selector("#m-stages li[data-stage='2']")
    tournament = Tournament.objects.get(name="Copa por fases")
    plan = tournament.stage_plan
    assert [s["format"] for s in plan] == ["round_robin", "single_elimination"]
    assert plan[0]["params"]["groups"] == 2
    assert plan[0]["params"]["advance"] == {"per_group": 1, "wildcards": 2}
    assert "advance" not in plan[1]["params"]
    assert tournament.checkin_deadline is not None and tournament.checkin_deadline.year == 2099
    # register and check in from the console
    page.fill("#e-name", "Pepa")
    page.click("#e-submit")
    page.wait_for_selector('#m-entries tr:has-text("Pepa") button')
    entry = Entry.objects.get(tournament=tournament, name="Pepa")
    page.click(f"#check-in-{entry.pk}")
    page.wait_for_selector(f'#m-entries tr[data-entry="{entry.pk}"][data-status="checked_in"]')
    assert "registrado" not in page.inner_text(f'#m-entries tr[data-entry="{entry.pk}"]')
    shot(page, "organiser-stages-created")
