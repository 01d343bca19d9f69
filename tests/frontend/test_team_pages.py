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
from tournaments.clubs import members as club_members

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
    club = club_members.create_club("Club de equipos", "equipos", owner)
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
    club = club_members.create_club("Club de parejas", "parejas", owner)
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


def test_an_organiser_creates_a_team_tournament_and_a_teammate_throws_from_their_account(
    open_page: Any,
) -> None:
    """The console offers pairs and teams for Alalay only; two teams registered there with
    their members' accounts; once started, the teammate who does not hold the team's seat
    opens the table, is on turn with the team and throws."""
    from cacho.models import Seat
    from tournaments.models import Entry, Table

    for name in ("olga", "ana", "beto", "caro", "dora"):
        session_cookie(name)
    club_members.create_club("Club del Alalay", "alalay-club", get_user_model().objects.get(username="olga"))
    page = open_page("/organise/", "olga", watch=True)
    page.wait_for_selector("#create[data-ready]")
    page.select_option("#c-ruleset", "dudo")
    assert page.locator("#c-entries-row").is_hidden()
    page.select_option("#c-ruleset", "alalay")
    page.select_option("#c-entry-type", "team")
    page.fill("#c-team-size", "2")
    page.fill("#c-name", "Copa de equipos")
    page.select_option("#s-0-format", "swiss")
    page.fill("#s-0-rounds", "1")
    page.fill("#s-0-table_size", "2")
    shot(page, "organiser-create-teams")
    page.click("#c-submit")
    page.wait_for_selector("#manage:not([hidden])")
    for team, members in (("Rojos", "@ana\n@beto"), ("Azules", "@caro\n@dora")):
        page.fill("#e-name", team)
        page.fill("#e-members", members)
        page.click("#e-submit")
        page.wait_for_selector(f'#e-done:has-text("{team}")')
    entries = Entry.objects.filter(tournament__name="Copa de equipos").prefetch_related("members__user")
    assert {e.name: [m.user.username for m in e.members.all()] for e in entries} == {
        "Rojos": ["ana", "beto"],
        "Azules": ["caro", "dora"],
    }
    page.click("#m-start")
    page.wait_for_selector('#m-tables li.table-row a[href^="/matches/"]')

    table = Table.objects.get(round__tournament__name="Copa de equipos")
    opener = Seat.objects.get(match_id=table.match_id, index=0)
    partner = {"Rojos": "beto", "Azules": "dora"}[opener.label]
    assert opener.user.username != partner  # the seat is its first member's
    play = open_page(f"/matches/{table.match_id}/", partner, watch=True)
    # The match names the members by their player ids; the page shows their names.
    holder = opener.user.username
    play.wait_for_selector(f"h2:has-text('{opener.label} ({holder})')")
    play.wait_for_selector(f"h3:has-text('{opener.label} ({holder}, {partner})')")
    play.wait_for_selector("#do-throw")
    play.click("#do-throw")
    play.wait_for_selector("[data-score], [data-scratch], #do-reroll")
    play.wait_for_selector(f"#game-log li[data-type='dice_thrown']:has-text('{opener.label} ({holder})')")
    shot(play, "table-teammate-throws")
