"""Play and watch in a real browser: a Dudo round to a dudo, an Alalay turn, a timed-out turn."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from cacho.models import Match
from cacho.services import matches
from tests.frontend.conftest import shot
from tests.live.harness import session_cookie

pytestmark = [pytest.mark.slow]


def _match(ruleset: str, seats: tuple[str, ...] = ("ana", "beto"), turn_seconds: int = 30) -> Match:
    match = matches.create_match(ruleset, list(seats), turn_seconds=turn_seconds)
    for index, name in enumerate(seats):
        session_cookie(name)
        matches.take_seat(match.pk, index, get_user_model().objects.get(username=name))
    return match


def _ready(page: Any) -> None:
    page.wait_for_selector("#match[data-version]")


def _dice_of(page: Any, owner: str) -> list[str]:
    return page.eval_on_selector_all(f'svg.die[data-owner="{owner}"]', "els => els.map(e => e.dataset.face)")


def test_two_players_play_a_dudo_round_and_a_spectator_sees_the_reveal(open_page: Any) -> None:
    match = _match("dudo")
    pages = {name: open_page(f"/matches/{match.pk}/", name) for name in ("ana", "beto")}
    watcher = open_page(f"/matches/{match.pk}/")
    for page in (*pages.values(), watcher):
        _ready(page)
    assert watcher.locator("#spectator-note").is_visible()
    assert watcher.locator("svg.die").count() == 0  # a spectator sees no die before a reveal

    mine = {}
    for name, page in pages.items():
        other = "beto" if name == "ana" else "ana"
        mine[name] = _dice_of(page, name)
        assert len(mine[name]) == 5
        # nothing of the other player's hand is anywhere in this page's DOM
        assert page.locator(f'[data-owner="{other}"], [data-owner^="revealed:"]').count() == 0
        assert "revealed:" not in page.content()

    starter = next(name for name, page in pages.items() if page.locator("#do-bid").count())
    other = "beto" if starter == "ana" else "ana"
    page = pages[starter]
    # the other player's socket drops: it reconnects and resumes from its last version
    pages[other].evaluate("window.cachoSocket.ws.close()")
    assert page.locator("[data-face-min]").count() == 6  # the minimum shown above each face
    page.wait_for_selector("#turn-who:has-text('Your turn')")
    shot(page, "dudo-player-on-turn")
    face = page.eval_on_selector("input[name=face]:not([disabled])", "e => e.value")
    page.check(f"#face-{face}")
    page.click("#do-bid")
    pages[other].wait_for_selector("#bid-history li[data-type='bid_made']")
    pages[other].wait_for_selector("#do-dudo")
    shot(pages[other], "dudo-player-facing-a-bid")
    pages[other].click("#do-dudo")

    for viewer in (*pages.values(), watcher):
        viewer.wait_for_selector("#reveal [data-revealed]")
        viewer.wait_for_selector("#reveal-count")
    revealed = {name: _dice_of(watcher, f"revealed:{name}") for name in ("ana", "beto")}
    assert revealed == mine  # the reveal is the round's dice, as each player saw theirs
    assert "There were" in watcher.inner_text("#reveal")
    shot(watcher, "dudo-spectator-reveal")
    shot(pages[starter], "dudo-player-after-reveal")


def test_alalay_turn_with_a_reroll_and_a_turning(open_page: Any) -> None:
    match = _match("alalay")
    pages = {name: open_page(f"/matches/{match.pk}/", name) for name in ("ana", "beto")}
    for page in pages.values():
        _ready(page)
    page = next(p for p in pages.values() if p.locator("#do-throw").count())
    assert page.locator(".sheet").count() == 2
    assert page.locator('.sheet [data-box="ones"]').first.inner_text().startswith("Balas")
    page.click("#do-throw")
    page.wait_for_selector("#do-reroll")
    page.wait_for_selector(".sheet .hint")  # the points each open box would give now
    shot(page, "alalay-first-throw")
    buttons = page.locator("#turn-dice button.die-button")
    buttons.nth(0).click()
    buttons.nth(1).click()
    assert page.locator("#turn-dice button.kept").count() == 2
    page.click("#do-reroll")
    page.wait_for_selector("#do-reroll", state="detached")
    page.wait_for_selector("[data-score], [data-scratch], #turn-dice button.die-button")
    if page.locator("#turn-dice button.die-button").count():  # turning is due after a partial re-roll
        page.locator("#turn-dice button.die-button").first.click()
        page.wait_for_selector("#turn-dice svg.die.turned")
    page.wait_for_selector("[data-score], [data-scratch]")
    shot(page, "alalay-after-turning")
    page.locator("[data-score], [data-scratch]").first.click()
    page.wait_for_selector(".sheet .box.filled, .sheet .box.scratched")
    for viewer in pages.values():
        viewer.wait_for_selector(".sheet .box.filled, .sheet .box.scratched")
        viewer.wait_for_selector(".sheet .mark, .sheet .box.scratched")
    shot(page, "alalay-scoresheet")


def test_a_timed_out_turn_is_played_automatically_in_the_page(open_page: Any, worker: Any) -> None:
    match = _match("dudo", turn_seconds=2)
    page = open_page(f"/matches/{match.pk}/", "ana")
    _ready(page)
    page.wait_for_selector("#countdown")
    page.wait_for_selector("#bid-history li:has-text('time ran out')", timeout=15_000)
    shot(page, "dudo-timed-out")


def test_the_replay_steps_through_a_match_and_shows_the_reveal(open_page: Any) -> None:
    record = {
        "format": "cacho-match/1",
        "game": "dudo",
        "ruleset": "dudo",
        "players": ["ana", "beto"],
        "rounds": [
            {
                "dice": {"ana": [1, 2, 3, 4, 5], "beto": [6, 6, 2, 3, 1]},
                "actions": [{"by": "ana", "bid": [2, 6]}, {"by": "beto", "call": "dudo"}],
            }
        ],
    }
    session_cookie("ana")
    match = matches.import_record(
        record, created_by=get_user_model().objects.get(username="ana"), actor="test"
    )
    page = open_page(f"/matches/{match.pk}/replay")
    page.wait_for_selector("#replay[data-loaded]")
    for _ in range(10):
        if page.locator("#replay-count").count():
            break
        page.click("#r-next")
    assert page.locator("#r-step [data-revealed]").count() == 2
    assert _dice_of(page, "revealed:beto") == ["6", "6", "2", "3", "1"]
    # Two sixes bid, aces wild in a normal dudo round: the sixes and both aces count (4).
    counted = page.eval_on_selector_all(
        "#r-step svg.die.counted",
        "els => els.map(e => [e.dataset.owner, e.dataset.face, e.classList.contains('wild')])",
    )
    assert sorted(counted) == [
        ["revealed:ana", "1", True],
        ["revealed:beto", "1", True],
        ["revealed:beto", "6", False],
        ["revealed:beto", "6", False],
    ]
    assert page.locator("#r-step .wild-note").count() == 1
    shot(page, "replay-reveal")
