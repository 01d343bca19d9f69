"""The scorekeeper's "state at time" form (docs/physical.md, "At time") in a real browser at
390×844, against the real server, API, engine and data: the director calls time before
anything is entered at a physical table, the sheet shows the call and the form with the
dice each player holds, a state no round could leave is refused in place, the scorekeeper
enters the dice held once the round under way ended and the table is decided at time.
Screenshots go to tests/frontend/artifacts/; axe finds no serious violation; the console
stays clean."""

from __future__ import annotations

from typing import Any

import pytest

from tests.frontend.conftest import shot
from tests.frontend.test_accessibility import axe_clean
from tests.frontend.test_scorekeeper import (
    PHONE,
    _after,
    _evening,
    _refusals_allowed,
    _user,
    _version,
    _watch,
)
from tournaments.models import Table
from tournaments.services.at_time import call_time

pytestmark = [pytest.mark.slow]

SWISS = [{"name": "swiss", "format": "swiss", "params": {"rounds": 1, "table_size": 3}}]


def _in_view(page: Any, selector: str) -> None:
    """Every control of `selector` is on the phone's screen without scrolling sideways."""
    width = page.viewport_size["width"]
    for control in page.locator(f"{selector} input, {selector} button").all():
        rect = control.bounding_box()
        assert rect is not None and rect["x"] >= 0 and rect["x"] + rect["width"] <= width, rect


def test_time_called_before_the_first_entry_and_the_state_at_time_decides_the_table(
    open_page: Any,
) -> None:
    _, table = _evening("dudo", SWISS, ("Ana", "Beto", "Caro"))
    call_time(table.round_id, _user("olga"))  # the director, before anything is entered
    page = open_page(f"/scorekeeper/tables/{table.pk}/", "sam", viewport=PHONE)
    errors = _watch(page)
    page.wait_for_selector("#sk[data-loaded='1']")

    banner = page.locator("#time-called")
    assert banner.is_visible() and banner.get_attribute("data-decided") == "false"
    assert "Time has been called" in banner.inner_text()
    form = page.locator("#sk-state-at-time")
    assert form.is_visible()
    held = {name: form.locator(f"input[data-player='{name}']") for name in ("Ana", "Beto", "Caro")}
    assert {name: box.input_value() for name, box in held.items()} == {"Ana": "5", "Beto": "5", "Caro": "5"}
    _in_view(page, "#sk-state-at-time")
    form.scroll_into_view_if_needed()
    shot(page, "scorekeeper-at-time-form-phone")
    axe_clean(page, "scorekeeper-at-time-form-phone")

    # two dice lost in one round: no outcome of the round under way leaves that
    held["Beto"].fill("4")
    held["Caro"].fill("4")
    page.click("#sk-state-at-time button[type=submit]")
    page.wait_for_selector("#sk-entry-error .sk-error[data-code='state-at-time-impossible']")
    shot(page, "scorekeeper-at-time-refused-phone")

    held["Caro"].fill("5")  # Beto lost a die in the round under way
    version = _version(page)
    page.click("#sk-state-at-time button[type=submit]")
    _after(page, version)
    page.wait_for_selector("#time-called[data-decided='true']")
    assert "decided at time" in page.inner_text("#time-called")
    assert page.locator("#sk-state-at-time").count() == 0
    assert "The dice held at time" in page.inner_text("#sk-rounds")
    page.wait_for_selector("#sk-confirm:not([hidden])")  # the players confirm the sheet
    places = page.inner_text("#sk-places-at-time")  # no winner: the places by dice, shared
    assert places.startswith("Places at time: 1. ") and places.endswith(" · 3. Beto"), places
    assert "null" not in page.inner_text("#sk-confirm")
    shot(page, "scorekeeper-at-time-decided-phone")
    axe_clean(page, "scorekeeper-at-time-decided-phone")

    table.refresh_from_db()
    assert table.status == Table.PLAYING  # until the players confirm the sheet
    assert not _refusals_allowed(errors), errors
