"""The replay (scrub bar beside the move list, jump to a round, the record as a file, a link to
a moment, rule terms explained, every event in words) and the tournament page (podium, each
table's result on its card, live tables marked, named links, tie reasons), at 1280 × 800 and
390 × 844, in a real browser with its console watched."""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.frontend.conftest import ARTIFACTS, shot
from tests.frontend.viewing import VIEWPORTS, imported, live_match, tournament, viewed
from tests.test_foundation.helpers import Server

pytestmark = [pytest.mark.slow]

# A type code leaking into the page: two or more lowercase words joined by "_".
RAW_CODE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")


def _engine_event_types() -> list[str]:
    from cacho.engine.alalay import events as alalay
    from cacho.engine.alalay import ruling_events as alalay_rulings
    from cacho.engine.bidding import events as bidding
    from cacho.engine.bidding import ruling_events as bidding_rulings

    return sorted(
        {
            cls.TYPE
            for module in (bidding, bidding_rulings, alalay, alalay_rulings)
            for _, cls in inspect.getmembers(module, inspect.isclass)
            if isinstance(getattr(cls, "TYPE", None), str)
        }
    )


def _step(page: Any) -> tuple[str, str]:
    return page.get_attribute("#replay", "data-version"), page.inner_text("#r-pos")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_replay_of_a_bidding_match(browser: Any, server: Server, size: str) -> None:
    match = imported("cacho-chileno-full-match-paso-and-obligado")
    with viewed(browser, server, f"/matches/{match.pk}/replay", VIEWPORTS[size]) as seen:
        page = seen.page
        page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
        page.wait_for_selector("#replay[data-loaded]")
        total = int(page.get_attribute("#replay", "data-loaded"))
        assert page.inner_text("#r-pos") == f"Step 1 of {total}"

        # The step and the move list side by side on a wide screen, one above the other on a phone.
        main, moves = (
            page.locator(".replay-main").bounding_box(),
            page.locator(".replay-moves").bounding_box(),
        )
        if size == "desktop":
            assert moves["x"] >= main["x"] + main["width"] and abs(moves["y"] - main["y"]) < 5
        else:
            assert moves["y"] >= main["y"] + main["height"] and moves["x"] + moves["width"] <= 390
        assert page.evaluate("document.documentElement.scrollWidth") <= VIEWPORTS[size]["width"]
        moves_text = page.inner_text("#r-log")
        assert page.locator("#r-log li[data-v]").count() == total
        assert not RAW_CODE.findall(moves_text), RAW_CODE.findall(moves_text)
        shot(page, f"replay-start-{size}")

        # The scrub bar, the jump to a round, a click in the move list: each moves the step and the URL.
        page.fill("#r-scrub", "5")
        assert page.inner_text("#r-pos") == f"Step 5 of {total}"
        assert page.url.endswith(f"#v={page.get_attribute('#replay', 'data-version')}")
        page.select_option("#r-round", label="Round 2")
        assert "Round 2 starts" in page.inner_text("#r-step .words")
        assert page.locator('#r-log a[aria-current="step"]').inner_text() == page.inner_text("#r-step .words")

        # Rule terms explained where they happen: a paso, then a dudo with the dice counted.
        page.locator("#r-log a", has_text="says paso").first.click()
        page.wait_for_selector('#r-step dt[data-term="paso"]')  # the step redraws after the click
        assert page.locator('#r-step dt[data-term="paso"]').count() == 1
        page.locator("#r-log a", has_text="calls dudo").first.click()
        page.wait_for_selector('#r-step dt[data-term="dudo"]')
        assert page.locator("#r-step [data-revealed]").count() >= 2
        assert re.search(r"loses 1 die\.", page.inner_text("#r-step .words"))
        shot(page, f"replay-dudo-{size}")

        # A link to this moment: copied, then opened elsewhere, it lands on the same step.
        page.click("#r-copy")
        page.wait_for_selector("#r-copied:has-text('Link copied')")
        link = page.evaluate("navigator.clipboard.readText()")
        here = _step(page)
        assert link.endswith(f"#v={here[0]}")
        with viewed(browser, server, link.removeprefix(server.url), VIEWPORTS[size]) as other:
            other.page.wait_for_selector("#replay[data-loaded]")
            assert _step(other.page) == here
            assert not other.errors, other.errors

        # The record as a .json file with a name that says what it is.
        with page.expect_download() as download:
            page.click("#r-download")
        name = download.value.suggested_filename
        assert re.fullmatch(rf"cacho-cacho-chileno-\d{{4}}-\d\d-\d\d-{str(match.pk)[:8]}\.json", name), name
        record = json.loads(Path(download.value.path()).read_text())
        assert record == page.request.get(f"{server.url}/api/matches/{match.pk}/record").json()
        assert record["format"] == "cacho-match/1"

        page.click("#r-glossary-box summary")
        assert page.locator("#r-glossary dt").count() == 7
        page.click("#r-last")
        shot(page, f"replay-end-{size}")
        assert not seen.errors, seen.errors


def test_an_alalay_replay_says_a_timed_out_turn_and_turning_in_words(browser: Any, server: Server) -> None:
    match = imported("alalay-timeout-scratch-tie-takes-the-first-box", by="pepe")
    with viewed(browser, server, f"/matches/{match.pk}/replay", VIEWPORTS["phone"]) as seen:
        page = seen.page
        page.wait_for_selector("#replay[data-loaded]")
        moves = page.inner_text("#r-log")
        assert "ran out of time" in moves and "turn_timed_out" not in moves
        assert not RAW_CODE.findall(moves), RAW_CODE.findall(moves)
        assert page.inner_text("label[for=r-round]") == "Jump to turn"
        # The timeout opens the turn it plays, under "Turn 1".
        turn = page.locator('#r-log .move-group:has(h3:text-is("Turn 1"))')
        assert "ran out of time" in turn.locator("li[data-v]").first.inner_text()
        page.locator("#r-log a", has_text="turns die").first.click()
        assert "opposite face" in page.inner_text('#r-step dt[data-term="turning"] + dd')
        page.locator("#r-log a", has_text="scratches").first.click()
        page.wait_for_selector('#r-step dt[data-term="scratch"]')  # the step redraws after the click
        assert page.locator('#r-step dt[data-term="scratch"]').count() == 1
        page.click("#r-glossary-box summary")
        assert page.locator('#r-glossary dt[data-term="dormida"]').count() == 1
        shot(page, "replay-alalay-phone")
        assert not seen.errors, seen.errors


def test_every_engine_event_is_put_in_words(browser: Any, server: Server) -> None:
    """Each event type the engines record (rulings included) has its own sentence, with no
    code in it: none falls back to the generic one."""
    match = imported("dudo-full-match-three-players")
    sample = {
        "player": "Ana", "entry": "Ana", "caller": "Ana", "target": "Beto", "result": "dudo",
        "quantity": 3, "face": 5, "count": 2, "number": 2, "starter": "Beto", "reason": "a misclick",
        "round": 2, "turn": 3, "delta": -1, "box": "fives", "points": 15, "de_mano": True,
        "position": 1, "dice": [1, 2, 3], "winners": ["Ana"], "players": ["Ana", "Beto"],
        "placements": [["Ana", 1], ["Beto", 2]], "replaced": "fours",
    }  # fmt: skip
    with viewed(browser, server, f"/matches/{match.pk}/replay", VIEWPORTS["desktop"]) as seen:
        page = seen.page
        page.wait_for_selector("#replay[data-loaded]")
        said = page.evaluate(
            """async ([types, d]) => {
                const src = document.querySelector('script[type=module][src$="replay.js"]').src;
                const { words } = await import(src.replace(/replay\\.js$/, "replay-words.js"));
                return types.map((t) => [t, words({ t, v: 1, d })]);
            }""",
            [_engine_event_types(), sample],
        )
        generic = json.loads(page.inner_text("#labels"))["replay_page"]["words"]["other"]
        for kind, text in said:
            assert text and text != generic and not RAW_CODE.findall(text) and "undefined" not in text, (
                kind,
                text,
            )
        assert not seen.errors, seen.errors


@pytest.mark.parametrize(("size", "locale"), [("desktop", "en"), ("phone", "es")])
def test_a_finished_tournament_shows_each_tables_result(
    browser: Any, server: Server, size: str, locale: str
) -> None:
    finished = tournament("Copa del podio", finished=True)
    with viewed(browser, server, f"/tournaments/{finished.pk}/", VIEWPORTS[size], locale=locale) as seen:
        page = seen.page
        page.wait_for_selector("#tournament[data-loaded]")
        page.wait_for_selector("#t-final:not([hidden]) #t-podium li.step")
        cards = page.locator(".table-card")
        assert cards.count() == 2
        for n in (1, 2):
            lines = page.locator(f'.round-col[data-round="1"] .table-card:nth-child({n}) ol.result li')
            assert lines.count() == 4
            first = lines.first
            assert first.get_attribute("data-place") == "1" and "winner" in first.get_attribute("class")
            assert re.search(r"[35]", first.inner_text())
        # Readable: no result in small print.
        sizes = page.eval_on_selector_all(
            ".table-card li, .table-card a", "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))"
        )
        assert min(sizes) >= 14, sizes
        # Every link of the diagram is named for a screen reader: the table, the round, the players.
        for link in page.locator(".table-card a").all():
            name = link.get_attribute("aria-label")
            assert name and len(name) > len(link.inner_text()) + 10, name
            if locale == "en":
                assert name.startswith(f"{link.inner_text()} of round 1: "), name
        assert page.locator(".table-card.live").count() == 0
        standings = page.inner_text("#t-standings")
        assert ("por delante de" if locale == "es" else "ahead of") in standings
        assert page.is_visible("#t-tiebreak-legend")
        entries = page.inner_text("#t-entries")
        assert "playing" not in entries and "jugando" not in entries
        assert page.evaluate("document.documentElement.scrollWidth") <= VIEWPORTS[size]["width"]
        shot(page, f"tournament-finished-{size}")
        page.locator("#t-tree").screenshot(path=str(ARTIFACTS / f"tournament-rounds-{size}.png"))
        assert not seen.errors, seen.errors


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_running_tournament_marks_its_live_tables(browser: Any, server: Server, size: str) -> None:
    running = tournament("Copa en vivo", finished=False)
    with viewed(browser, server, f"/tournaments/{running.pk}/", VIEWPORTS[size]) as seen:
        page = seen.page
        page.wait_for_selector("#tournament[data-loaded]")
        assert page.locator(".table-card.live").count() == 2
        assert page.locator("#t-live [data-live-match]").count() == 2
        names = [a.get_attribute("aria-label") for a in page.locator(".table-card a").all()]
        assert all(re.fullmatch(r"Watch table \d of round 1: \w+, \w+, \w+, \w+", n or "") for n in names), (
            names
        )
        assert page.inner_text(".table-card.live .badge") == "live"
        assert page.is_hidden("#t-final")
        shot(page, f"tournament-live-{size}")
        page.locator(".table-card a").first.click()
        page.wait_for_selector("#match[data-version]")
        assert not seen.errors, seen.errors


def test_a_tournament_that_does_not_exist_is_the_sites_404(browser: Any, server: Server) -> None:
    live_match()  # a database with something in it
    with viewed(browser, server, "/tournaments/999999/", VIEWPORTS["phone"]) as seen:
        response = seen.page.request.get(f"{server.url}/tournaments/999999/")
        assert response.status == 404
        assert seen.page.locator("#tournament").count() == 0
