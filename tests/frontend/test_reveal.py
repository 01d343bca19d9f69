"""The reveal at a dudo, as a spectator sees it: the cups lift, the dice that count for the bid
light up one by one while the tally counts up, then the count and the result, announced in an
aria-live region; with reduced motion the final picture comes at once. Every page is watched:
no console error, no failed request."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from cacho.eventlog.store import read_stream
from cacho.models import Match
from cacho.services import matches
from tests.frontend.conftest import shot
from tests.live.harness import session_cookie

pytestmark = [pytest.mark.slow]

WILD_RULESETS = {"dudo", "cacho-chileno", "cacho-online"}
FACE_NAMES = {1: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _match(ruleset: str, seats: tuple[str, ...]) -> Match:
    match = matches.create_match(ruleset, list(seats), turn_seconds=60)
    for index, name in enumerate(seats):
        session_cookie(name)
        matches.take_seat(match.pk, index, get_user_model().objects.get(username=name))
    return match


def _dice(page: Any) -> dict[str, list[int]]:
    script = """els => {
      const out = {};
      for (const li of els) out[li.dataset.revealed] =
        [...li.querySelectorAll('svg.die')].map(d => Number(d.dataset.face));
      return out;
    }"""
    hands: dict[str, list[int]] = page.eval_on_selector_all("#reveal [data-revealed]", script)
    return hands


def _counted_positions(page: Any) -> list[list[Any]]:
    script = """els => els.flatMap(li => [...li.querySelectorAll('svg.die')]
      .map((d, i) => d.classList.contains('counted') ? [li.dataset.revealed, i] : null)
      .filter(Boolean))"""
    positions: list[list[Any]] = page.eval_on_selector_all("#reveal [data-revealed]", script)
    return sorted(positions)


def _bid_and_dudo(pages: dict[str, Any]) -> tuple[int, int]:
    """The starter bids the lowest quantity of the first face allowed; the next player calls dudo."""
    for page in pages.values():
        page.wait_for_selector("#match[data-version]")
    starter = next(name for name, page in pages.items() if page.locator("#do-bid").count())
    page = pages[starter]
    face = int(page.eval_on_selector("input[name=face]:not([disabled])", "e => e.value"))
    page.check(f"#face-{face}")
    quantity = int(page.input_value("#bid-quantity"))
    page.click("#do-bid")
    others = [p for name, p in pages.items() if name != starter]
    for p in others:
        p.wait_for_selector("#bid-history li[data-type='bid_made']")
    # the log shows the bid from its event; the Dudo button comes with the state that follows
    callers: list[Any] = []
    for _ in range(200):
        callers = [p for p in others if p.locator("#do-dudo").count()]
        if callers:
            break
        others[0].wait_for_timeout(50)
    caller = callers[0]
    caller.click("#do-dudo")
    return quantity, face


def test_a_spectator_sees_the_cups_lift_and_the_dice_counted_at_a_dudo(open_page: Any) -> None:
    seats = ("ana", "beto", "carla")
    match = _match("dudo", seats)
    watcher = open_page(f"/matches/{match.pk}/", watch=True)
    still = open_page(f"/matches/{match.pk}/", watch=True)
    still.emulate_media(reduced_motion="reduce")
    pages = {name: open_page(f"/matches/{match.pk}/", name, watch=True) for name in seats}
    for page in (watcher, still):
        page.wait_for_selector("#match[data-version]")
        assert page.locator("#reveal").count() == 0  # nothing is revealed before a resolution

    quantity, face = _bid_and_dudo(pages)

    # the animation: cups first, then the tally, then the count, the result and the announcement
    watcher.wait_for_selector("#reveal[data-phase='cups'], #reveal[data-phase='counting']")
    assert watcher.locator("#reveal-skip").count() == 1
    shot(watcher, "reveal-cups-lifting")
    watcher.wait_for_selector("#reveal[data-phase='counting']")
    watcher.wait_for_selector("#reveal .hand.lifted")
    shot(watcher, "reveal-counting")
    watcher.wait_for_selector("#reveal[data-phase='done']", timeout=15_000)
    shot(watcher, "reveal-spectator-done")

    hands = _dice(watcher)
    assert set(hands) == set(seats) and all(len(hand) == 5 for hand in hands.values())
    count = int(watcher.get_attribute("#reveal", "data-count") or "-1")
    naturals = sum(hand.count(face) for hand in hands.values())
    aces = sum(hand.count(1) for hand in hands.values()) if face != 1 else 0
    assert count == naturals + aces  # a normal Dudo round: aces are wild
    counted = watcher.eval_on_selector_all(
        "#reveal svg.die.counted",
        "els => els.map(e => [Number(e.dataset.face), e.classList.contains('wild')])",
    )
    assert len(counted) == count
    assert all(f == face or (f == 1 and wild) for f, wild in counted)
    # the page lights exactly the dice the engine counted, by player and position
    (resolved,) = [e for e in read_stream(match.pk) if e.type == "round_resolved"]
    engine_counted = sorted([name, i] for name, positions in resolved.payload["counted"] for i in positions)
    assert _counted_positions(watcher) == engine_counted
    assert watcher.inner_text("#reveal-tally") == str(count)
    text = watcher.inner_text("#reveal-count")
    named = FACE_NAMES[face]  # the face in words
    assert text.startswith(f"There were {count} × {named}") and f"bid: {quantity} × {named}" in text
    assert watcher.locator("#reveal .changes li").count() >= 1
    assert "loses a die" in watcher.inner_text("#reveal .changes")
    announced = watcher.inner_text("#reveal-announce")
    assert f"There were {count} × {named}" in announced and "loses a die" in announced
    assert watcher.locator("#reveal .hand.lost").count() == 1
    assert watcher.locator("#reveal-skip").count() == 0

    # reduced motion: the same final picture, without the steps
    still.wait_for_selector("#reveal[data-phase='done']")
    assert still.locator("#reveal .hand.lifted").count() == 3
    assert _dice(still) == hands
    assert still.locator("#reveal svg.die.counted").count() == count
    assert _counted_positions(still) == engine_counted
    assert "loses a die" in still.inner_text("#reveal-announce")

    # every player sees the same reveal; a page opened afterwards shows it at rest
    for page in pages.values():
        page.wait_for_selector("#reveal[data-phase='done']", timeout=15_000)
        assert _dice(page) == hands
    late = open_page(f"/matches/{match.pk}/", watch=True)
    late.wait_for_selector("#reveal[data-phase='done']")
    assert _dice(late) == hands
    assert _counted_positions(late) == engine_counted  # drawn from the state's last round
    assert late.inner_text("#reveal-announce") == ""  # nothing to announce for an old reveal
    shot(late, "reveal-opened-afterwards")


def test_the_reveal_can_be_skipped_and_is_translated(open_page: Any) -> None:
    seats = ("ana", "beto")
    match = _match("dudo", seats)
    watcher = open_page(f"/matches/{match.pk}/", locale="es", watch=True)
    pages = {name: open_page(f"/matches/{match.pk}/", name, locale="es", watch=True) for name in seats}
    watcher.wait_for_selector("#match[data-version]")
    _bid_and_dudo(pages)
    watcher.wait_for_selector("#reveal-skip")
    watcher.click("#reveal-skip")
    watcher.wait_for_selector("#reveal[data-phase='done']", timeout=2_000)
    assert watcher.locator("#reveal-skip").count() == 0
    assert "Había" in watcher.inner_text("#reveal-count")
    assert watcher.inner_text("#reveal-announce")  # the result's words await their Spanish
    shot(watcher, "reveal-skipped-es")
