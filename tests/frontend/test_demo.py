"""The demo club as `make run` seeds it (`seed_demo`), opened in a real browser: the finished
tournament's podium and exports, the leaderboard with the bots' ratings, a bot's page, and
the ruled dispute's review and trail, opened by the demo referee with the documented login."""

from __future__ import annotations

import io
from typing import Any

import openpyxl
import pytest
from django.core.management import call_command

from tests.frontend.conftest import shot
from tests.test_foundation.helpers import Server
from tournaments.models import Dispute, Tournament
from tournaments.services import demo_seed

pytestmark = [pytest.mark.slow]


def test_a_newcomer_opens_every_part_of_the_demo(open_page: Any, server: Server) -> None:
    call_command("seed_demo", stdout=io.StringIO())
    finished = Tournament.objects.get(name=demo_seed.FINISHED)
    dispute = Dispute.objects.get(tournament=finished)

    page = open_page(f"/tournaments/{finished.pk}/", watch=True)
    page.wait_for_selector("#t-final:not([hidden])")
    podium = page.locator("#t-podium li")
    assert podium.count() >= 3 and "Bot" in podium.first.inner_text()
    assert page.locator("#t-ranking tbody tr").count() == 8
    shot(page, "demo-finished-tournament")
    exports = {
        kind: page.request.get(f"{server.url}/api/tournaments/{finished.pk}/standings/{kind}")
        for kind in ("csv", "xlsx", "print")
    }
    assert all(answer.ok for answer in exports.values())
    assert exports["csv"].body().startswith("\ufeffPlace,".encode())
    book = openpyxl.load_workbook(io.BytesIO(exports["xlsx"].body()))
    assert len(list(book.worksheets[0].iter_rows(min_row=2))) == 8

    board = open_page("/ratings/", watch=True)
    listed = {row.get_attribute("data-username") for row in board.locator("#leaderboard tbody tr").all()}
    assert {f"bot-dudo-{i:02d}" for i in range(1, 9)} <= listed
    shot(board, "demo-leaderboard")

    bot = open_page("/players/bot-dudo-01/", watch=True)
    # one point of the history per rated table of the finished tournament
    assert bot.locator('#player-ratings .rating[data-family="dudo"] circle.point').count() >= 2

    referee = open_page("/login/", watch=True)
    referee.fill("input[name=username]", demo_seed.REFEREE)
    referee.fill("input[name=password]", demo_seed.REFEREE_PASSWORD)
    referee.click("form.stack button[type=submit]")
    referee.wait_for_url(lambda url: "/login/" not in url)
    assert referee.locator('#site-nav a[href="/disputes/"]').count() == 1
    referee.goto(f"{server.url}/disputes/")
    referee.wait_for_selector("#closed[data-loaded]:not([hidden])")
    referee.click(f'#c-rows a[data-open="{dispute.pk}"]')
    referee.wait_for_selector("#tm[data-loaded]")  # the review: the match step by step
    assert not referee.locator("#referee").is_hidden()
    trail = referee.locator("#d-trail li")
    assert trail.count() == 3
    assert "The bid stands" in referee.inner_text("#d-trail")
    shot(referee, "demo-ruled-dispute")
