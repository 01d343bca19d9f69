"""Pairs and teams in the browser: the desk registers a team with its members and substitutes
one between rounds; the table page of an Alalay match between teams shows each team's
members beside its name and the member whose throw it is (rules.md §8 AL-8); a finished
team tournament's page lists the champion team first with its members."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from cacho.services import matches
from tests.frontend.conftest import shot
from tests.live.harness import session_cookie

pytestmark = [pytest.mark.slow]


def test_the_table_page_shows_each_teams_members_and_who_throws(open_page: Any) -> None:
    session_cookie("ana"), session_cookie("beto")
    users = get_user_model()
    ana, beto = users.objects.get(username="ana"), users.objects.get(username="beto")
    match = matches.create_match(
        "alalay",
        ["Reds", "Blues"],
        turn_seconds=600,
        first_seat=0,
        members=[["ana", "Caro", "Dani"], ["beto", "Eva", "Flor"]],
    )
    matches.take_seat(match.pk, 0, ana)
    matches.take_seat(match.pk, 1, beto)
    page = open_page(f"/matches/{match.pk}/", "ana", watch=True)
    page.wait_for_selector("h3:has-text('Reds (ana, Caro, Dani)')")
    page.wait_for_selector("h3:has-text('Blues (beto, Eva, Flor)')")
    page.wait_for_selector("h2:has-text('Reds (ana)')")
    shot(page, "table-alalay-teams")


def test_a_finished_team_tournament_shows_the_champion_team_first_with_its_members(open_page: Any) -> None:
    """Four Alalay teams of two, one Swiss round at a table of four (seat 0 wins, results
    chosen by the test): the podium, the final ranking and the standings list each team's
    members under its name, the champion team first."""
    from tests.tournaments.helpers import play_scripted
    from tournaments import services
    from tournaments.services.standings import final_ranking

    session_cookie("dora")
    owner = get_user_model().objects.get(username="dora")
    club = services.create_club("Club de equipos", "equipos", owner)
    stages = [{"name": "Suiza", "format": "swiss", "params": {"rounds": 1, "table_size": 4}}]
    tournament = services.create_tournament(
        club.pk,
        owner,
        name="Copa de equipos",
        ruleset="alalay",
        entry_type="team",
        team_size=2,
        stages=stages,
        standings={"tiebreaks": ["eliminations", "dice_left"]},
    )
    members = {}
    for team in ("Rojos", "Azules", "Verdes", "Negros"):
        members[team] = [f"{team[0]}na", f"{team[0]}eto"]
        services.register(tournament.pk, owner, name=team, members=members[team])
    services.start_tournament(tournament.pk, owner)
    play_scripted(tournament)
    names = {e.pk: e.name for e in tournament.entries.all()}
    champion = names[next(p.entry_id for p in final_ranking(tournament) if p.place == 1)]

    page = open_page(f"/tournaments/{tournament.pk}/", locale="es", watch=True)
    page.wait_for_selector("#tournament[data-loaded]")
    page.wait_for_selector("#t-final:not([hidden]) #t-podium li.step")
    first_step = page.locator('#t-podium li.step[data-place="1"] .names li')
    assert first_step.inner_text().splitlines() == [champion, ", ".join(members[champion])]
    top = page.locator("#t-ranking tbody tr").first
    assert top.locator("td").first.inner_text() == "1"
    assert top.locator("td").nth(1).inner_text().splitlines() == [champion, ", ".join(members[champion])]
    for team, names_of in members.items():
        row = page.locator("#t-standings tbody tr", has_text=team)
        assert row.locator(".members").inner_text() == ", ".join(names_of)
    shot(page, "tournament-teams-podium")


def test_the_desk_registers_a_team_and_substitutes_a_member_between_rounds(open_page: Any) -> None:
    from tests.tournaments.helpers import finish_round
    from tournaments import services
    from tournaments.models import Entry

    for name in ("olga", "ana", "beto"):
        session_cookie(name)
    owner = get_user_model().objects.get(username="olga")
    club = services.create_club("Club de parejas", "parejas", owner)
    stages = [{"name": "Suiza", "format": "swiss", "params": {"rounds": 2, "table_size": 2}}]
    tournament = services.create_tournament(
        club.pk,
        owner,
        name="Parejas",
        ruleset="alalay",
        entry_type="pair",
        stages=stages,
        round_appeal_minutes=5,
        standings={"tiebreaks": ["eliminations", "dice_left"]},
    )
    # Not watched: the refused registration below answers 400 on purpose.
    page = open_page(f"/organise/{tournament.pk}/entries/", "olga", locale="es")
    page.wait_for_selector("#desk[data-ready]")
    assert page.locator("#d-members").is_visible() and page.locator("#d-paste").is_hidden()
    page.fill("#d-name", "Rojos")
    page.fill("#d-members", "@ana")
    page.click("#d-add-submit")
    page.wait_for_selector("#d-members[aria-invalid='true'], .error[data-code='entry-members-invalid']")
    assert not Entry.objects.filter(tournament=tournament).exists()
    page.fill("#d-members", "@ana\nCaro")
    page.click("#d-add-submit")
    page.wait_for_selector("#d-entries tr:has-text('Rojos (ana, Caro)')")
    rojos = Entry.objects.get(tournament=tournament, name="Rojos")
    assert [(m.name, m.user_id) for m in rojos.members.all()] == [
        ("ana", get_user_model().objects.get(username="ana").pk),
        ("Caro", None),
    ]
    services.register(tournament.pk, owner, name="Azules", members=["Dani", "Eva"])
    services.start_tournament(tournament.pk, owner)
    finish_round(tournament)  # the appeal period keeps round 2 waiting: between rounds

    page.reload()
    page.wait_for_selector("#desk[data-ready]")
    row = page.locator(f'tr[data-entry="{rojos.pk}"]')
    row.locator('[data-action="substitute"]').click()
    row.locator('select[data-input="out"]').select_option("Caro")
    row.locator('input[data-input="in"]').fill("@beto")
    shot(page, "desk-substitute-es")
    row.locator(".row-form button[type=submit]").click()
    page.wait_for_selector(f'tr[data-entry="{rojos.pk}"]:has-text("Rojos (ana, beto)")')
    assert list(rojos.members.values_list("name", flat=True)) == ["ana", "beto"]
