"""The table page of an Alalay match between teams: each team's members beside its name and
the member whose throw it is (a team's members throw in rotation, rules.md §8 AL-8)."""

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
