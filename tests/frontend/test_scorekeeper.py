"""The scorekeeper screen of a physical table (docs/physical.md) in a real browser, against
the real server, API, engine and data: a whole Dudo table entered by its outcome (one round
entered die by die, a bid refused in place), an undo, the players' confirmation on the same
device and the standings; an Alalay table turn by turn with a throw refused in place. At
390×844 every control of the entry in hand is on screen without scrolling; screenshots at
that size and at 1280×800 go to tests/frontend/artifacts/; the console stays clean."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.frontend.conftest import shot
from tests.live.harness import session_cookie
from tournaments import services
from tournaments.clubs import members as club_members
from tournaments.models import Membership, StandingRow, Table, Tournament

pytestmark = [pytest.mark.slow]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
PASSWORD = "pw-table-7"


def _user(name: str, password: str | None = None) -> Any:
    session_cookie(name)
    user = get_user_model().objects.get(username=name)
    if password:
        user.set_password(password)
        user.save()
    return user


def _evening(
    ruleset: str, stages: list[dict[str, Any]], players: tuple[str, ...]
) -> tuple[Tournament, Table]:
    """A club whose scorekeeper is sam; a physical tournament with one table: Ana has an
    account, the others are guests."""
    boss = _user("olga")
    club = club_members.create_club("Club de la mesa", f"mesa-{ruleset}", boss)
    club_members.grant_role(club.pk, _user("sam"), Membership.SCOREKEEPER, boss)
    tournament = services.create_tournament(
        club.pk, boss, name=f"Noche {ruleset}", ruleset=ruleset, stages=stages, physical=True
    )
    for name in players:
        services.register(
            tournament.pk, boss, name=name, user=_user("ana", PASSWORD) if name == "Ana" else None
        )
    services.start_tournament(tournament.pk, boss)
    return tournament, Table.objects.get(round__tournament=tournament)


def _watch(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"{m.text} {m.location}") if m.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def _refusals_allowed(errors: list[str]) -> list[str]:
    """A refused entry is a 400/409 answer the page shows in words: not a console error of
    the page's own making (Chromium logs every failed request)."""
    return [e for e in errors if "Failed to load resource" not in e]


def _version(page: Any) -> int:
    return int(page.get_attribute("#sk", "data-version"))


def _after(page: Any, version: int) -> None:
    """Until the sheet shows a version after `version` (read from Python: the pages' Content
    Security Policy refuses the string evaluation `wait_for_function` needs)."""
    for _ in range(200):
        if _version(page) > version:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"the sheet stayed at version {_version(page)}")


def _entry_in_view(page: Any) -> None:
    """Every control of the entry in hand is on the phone's screen without scrolling."""
    height = page.viewport_size["height"]
    width = page.viewport_size["width"]
    for box in page.locator("#sk-entry button:visible, #sk-undo button:visible").all():
        rect = box.bounding_box()
        assert (
            rect is not None and rect["y"] + rect["height"] <= height and rect["x"] + rect["width"] <= width
        ), (
            box.inner_text(),
            rect,
        )


def _outcome(page: Any, spare: str) -> None:
    """One round by its outcome through the buttons: the first call offered, its first
    caller, a result where `spare` loses nothing; confirmed."""
    version = _version(page)
    page.click("#sk-tab-outcome")
    page.click("#sk-calls [data-call=dudo]")
    page.click("#sk-callers button >> nth=0")
    page.click(f"#sk-results button:not([data-loser='{spare}'])")
    page.click("#sk-confirm-entry")
    _after(page, version)


def test_a_dudo_table_by_outcome_confirmed_at_the_table(open_page: Any) -> None:
    tournament, table = _evening(
        "dudo",
        [{"name": "swiss", "format": "swiss", "params": {"rounds": 1, "table_size": 3}}],
        ("Ana", "Beto", "Caro"),
    )
    page = open_page(f"/tournaments/{tournament.pk}/", "sam")
    errors = _watch(page)
    page.set_viewport_size(DESKTOP)
    page.click(f"[data-keep-score='{table.pk}']")
    page.wait_for_selector("#sk[data-loaded='1']")
    assert page.locator("#sk-calls [data-call]").count() >= 1  # the engine's calls, as buttons
    shot(page, "scorekeeper-dudo-desktop")

    # one round by its outcome, then undone, then entered again
    _outcome(page, "Ana")
    assert page.locator("#sk-rounds tr").count() == 1
    version = _version(page)
    page.click("#sk-undo-button")
    _after(page, version)
    assert page.locator("#sk-rounds tr").count() == 0 and page.locator("#sk-undo").is_hidden()

    # on a phone: a round entered die by die, a bid the engine refuses in place
    page.set_viewport_size(PHONE)
    # the site's navigation folds behind "Menu", so the entry starts at the top
    assert page.is_visible(".nav-toggle") and not page.is_visible("#site-nav")
    page.click(".nav-toggle")
    assert page.is_visible("#site-nav")
    page.click(".nav-toggle")
    page.click("#sk-tab-dice")
    for hand in ("Ana", "Beto", "Caro"):
        assert page.locator(f"[data-hand='{hand}']").count() == 1
    for face in [1, 2, 3, 4, 5, 2, 2, 6, 6, 3, 4, 4, 4, 1, 6]:
        page.click(f"#sk-entry .sk-pad [data-face='{face}']")
    page.wait_for_selector("#sk-dice-verdict .sk-legal")
    _entry_in_view(page)
    shot(page, "scorekeeper-dudo-dice-phone")
    version = _version(page)
    page.click("#sk-confirm-dice")
    _after(page, version)
    page.click("#sk-entry .sk-pad [data-face='3']")
    page.click("#sk-more")
    page.wait_for_selector("#sk-bid-verdict .sk-legal")
    version = _version(page)
    page.click("#sk-bid")
    _after(page, version)
    page.click("#sk-entry .sk-pad [data-face='3']")
    for _ in range(3):
        page.click("#sk-less")
    page.wait_for_selector("#sk-bid-verdict .sk-error")
    assert page.get_attribute("#sk-bid-verdict .sk-error", "data-code") in (
        "bid-not-higher",
        "invalid-quantity",
    )
    assert page.is_disabled("#sk-bid")
    _entry_in_view(page)
    shot(page, "scorekeeper-dudo-refused-phone")
    page.click("#sk-more")
    page.click("#sk-more")
    page.wait_for_selector("#sk-bid-verdict .sk-legal")
    version = _version(page)
    page.click("#sk-calls [data-call=dudo]")
    _after(page, version)

    # the rest of the table by its outcome; Ana never loses
    while page.locator("#sk-confirm").is_hidden():
        _entry_in_view(page)
        _outcome(page, "Ana")
    shot(page, "scorekeeper-dudo-confirm-phone")
    assert not StandingRow.objects.filter(tournament=tournament).exists()

    rows = {name: page.locator(f".sk-confirm-row:has-text('{name}')") for name in ("Ana", "Beto", "Caro")}
    rows["Caro"].locator("input").fill("Carla")
    rows["Caro"].locator("button").click()
    page.wait_for_selector(".sk-confirm-row .sk-error[data-code='confirm-name-mismatch']")
    for name, proof in (("Ana", PASSWORD), ("Beto", "beto")):
        row = page.locator(f".sk-confirm-row:has-text('{name}')")
        row.locator("input").fill(proof)
        row.locator("button").click()
        page.wait_for_selector(f".sk-confirmations li.done:has-text('{name}')")
    shot(page, "scorekeeper-dudo-confirming-phone")
    rows["Caro"].locator("input").fill("Caro")
    rows["Caro"].locator("button").click()
    page.wait_for_selector("#sk-closed")  # the last confirmation closes the table
    shot(page, "scorekeeper-dudo-closed-phone")
    page.set_viewport_size(DESKTOP)
    shot(page, "scorekeeper-dudo-closed-desktop")

    page.click(f"a[href='/tournaments/{tournament.pk}/']")
    page.wait_for_selector("#tournament[data-loaded]")
    expect(page.locator("#t-standings tbody tr[data-entry]")).to_have_count(3)
    assert page.locator("#t-standings tbody tr").first.inner_text().split("\t")[1].startswith("Ana")
    # anyone may watch the physical table's match and step through it, rounds entered by outcome too
    table.refresh_from_db()
    page.goto(page.url.split("/tournaments/")[0] + f"/matches/{table.match_id}/")
    page.wait_for_selector("#match[data-version]")
    page.goto(page.url + "replay")
    page.wait_for_selector("#replay[data-loaded]")
    page.click("#r-last")
    shot(page, "scorekeeper-dudo-replay-desktop")
    assert not _refusals_allowed(errors), errors


def test_an_alalay_table_turn_by_turn_in_spanish(open_page: Any) -> None:
    tournament, table = _evening(
        "alalay", [{"name": "final", "format": "final_table", "params": {}}], ("Ana", "Beto")
    )
    page = open_page(f"/scorekeeper/tables/{table.pk}/", "sam", locale="es")
    errors = _watch(page)
    page.set_viewport_size(PHONE)
    page.wait_for_selector("#sk[data-loaded='1']")
    first = page.inner_text("#sk-round-info")
    starter = "Ana" if "Ana" in first else "Beto"
    other = "Beto" if starter == "Ana" else "Ana"

    def throw(faces: list[int]) -> None:
        for face in faces:
            page.click(f"#sk-entry .sk-pad [data-face='{face}']")

    # four dice are not a throw: refused in place, in the rule's words (Spanish)
    throw([2, 3, 4, 5])
    page.click("#sk-throw")
    page.wait_for_selector("#sk-entry-error .sk-error[data-code='wrong-dice-count']")
    assert "cinco dados" in page.inner_text("#sk-entry-error")
    _entry_in_view(page)
    shot(page, "scorekeeper-alalay-refused-phone")
    throw([6])
    version = _version(page)
    page.click("#sk-throw")
    _after(page, version)
    version = _version(page)
    page.click("#sk-boxes [data-score=straight]")
    _after(page, version)

    # the other keeps 6 6 1, throws 6 6 again, must turn a die: the 1 becomes a 6
    assert other in page.inner_text("#sk-round-info")
    throw([6, 6, 2, 3, 1])
    version = _version(page)
    page.click("#sk-throw")
    _after(page, version)
    for position in (0, 1, 4):
        page.click(f"#sk-thrown [data-position='{position}']")
    throw([6, 6])
    _entry_in_view(page)
    shot(page, "scorekeeper-alalay-reroll-phone")
    version = _version(page)
    page.click("#sk-reroll")
    _after(page, version)
    assert page.locator("#sk-entry .sk-must").count() == 1
    version = _version(page)
    page.click("#sk-thrown .sk-turn[data-position='2']")
    _after(page, version)
    version = _version(page)
    page.click("#sk-boxes [data-score=grande_1]")
    _after(page, version)

    # five of a kind in one throw: la dormida ends the match
    throw([4, 4, 4, 4, 4])
    version = _version(page)
    page.click("#sk-throw")
    _after(page, version)
    page.wait_for_selector("#sk-confirm:not([hidden])")
    page.set_viewport_size(DESKTOP)
    shot(page, "scorekeeper-alalay-confirm-desktop")
    row = page.locator(".sk-confirm-row:has-text('Ana')")
    row.locator("input").fill(PASSWORD)
    row.locator("button").click()
    page.wait_for_selector(".sk-confirmations li.done:has-text('Ana')")
    row = page.locator(".sk-confirm-row:has-text('Beto')")
    row.locator("input").fill("Beto")
    row.locator("button").click()
    page.wait_for_selector("#sk-closed")
    table.refresh_from_db()
    assert table.status == Table.FINISHED
    winner = next(line for line in table.result if line["placement"] == 1)
    assert winner["instant_win"] is True
    assert StandingRow.objects.filter(tournament=tournament).exists()
    page.set_viewport_size(PHONE)
    shot(page, "scorekeeper-alalay-closed-phone")
    assert not _refusals_allowed(errors), errors
