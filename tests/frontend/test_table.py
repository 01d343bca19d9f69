"""The match page in a real browser at 1280×800 and 390×844: player panels with the
dice count in words, the game log across rounds with the calls in plain words, the reveal
moving into the log, "Your turn!" once, the phone layout with every action of the turn on the
first screen, Alalay turning made visible, a paused table, and a finished match's end screen
with its tournament links. No page logs a console error."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from cacho.models import Match, Seat
from cacho.services import matches
from tests.cacho.helpers import command_id, legal_bidding_move, state_of
from tests.frontend.conftest import shot
from tests.live.harness import session_cookie
from tests.test_foundation.helpers import Server
from tournaments.clubs import members as club_members

pytestmark = [pytest.mark.slow]

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
VIEWPORTS = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]


def _user(name: str) -> Any:
    session_cookie(name)
    return get_user_model().objects.get(username=name)


def _match(ruleset: str, seats: tuple[str, ...] = ("ana", "beto")) -> Match:
    match = matches.create_match(ruleset, list(seats), turn_seconds=600)
    for index, name in enumerate(seats):
        matches.take_seat(match.pk, index, _user(name))
    return match


@pytest.fixture
def table_page(browser: Any, server: Server) -> Iterator[Callable[..., Any]]:
    """`table_page(path, user, viewport)`: a page that records every console error."""
    contexts: list[Any] = []
    errors: list[str] = []

    def open_(path: str, user: str | None, viewport: dict[str, int]) -> Any:
        context = browser.new_context(locale="en", viewport=viewport)
        contexts.append(context)
        context.add_cookies([{"name": "django_language", "value": "en", "url": server.url}])
        if user is not None:
            name, value = session_cookie(user)["Cookie"].split("=", 1)
            context.add_cookies([{"name": name, "value": value, "url": server.url}])
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.on(
            "console",
            lambda message: (
                errors.append(f"{message.text} {message.location.get('url')}")
                if message.type == "error"
                else None
            ),
        )
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        page.goto(server.url + path)
        page.wait_for_selector("#match[data-version]")
        return page

    yield open_
    for context in contexts:
        context.close()
    assert errors == [], errors


def _tag(viewport: dict[str, int]) -> str:
    return "phone" if viewport is PHONE else "desktop"


def _in_first_screen(page: Any, selector: str) -> None:
    """Every element matching `selector` is on the first screen: no scrolling needed."""
    height = page.viewport_size["height"]
    boxes = page.eval_on_selector_all(selector, "els => els.map(e => e.getBoundingClientRect().bottom)")
    assert boxes, selector
    assert max(boxes) <= height, (selector, boxes, height)


def _visible_count(page: Any, text: str) -> int:
    found: int = page.evaluate("text => document.body.innerText.split(text).length - 1", text)
    return found


def _starter(match: Match) -> str:
    state = state_of(match)
    return state.config.players[state.round.to_act]


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_dudo_table_panels_plain_calls_and_the_log_across_rounds(table_page: Any, viewport: Any) -> None:
    match = _match("dudo")
    starter = _starter(match)
    other = "beto" if starter == "ana" else "ana"
    page = table_page(f"/matches/{match.pk}/", starter, viewport)
    # the panels: each player's dice in words, singular or plural as English says it
    assert page.inner_text('[data-player="ana"] .count') == "5 dice"
    assert page.get_attribute('[data-player="ana"] svg.cup', "aria-label") == "5 dice"
    page.wait_for_selector("#turn-who:has-text('Your turn!')")
    assert _visible_count(page, "Your turn!") == 1
    # the whole turn is on the first screen, on a phone too: the nav is folded away
    _in_first_screen(page, "#do-bid, .bid-picker, #bid-quantity")
    if viewport is PHONE:
        assert page.is_visible(".nav-toggle") and not page.is_visible("#site-nav")
        page.click(".nav-toggle")
        assert page.is_visible("#site-nav") and page.get_attribute(".nav-toggle", "aria-expanded") == "true"
        page.click(".nav-toggle")
    shot(page, f"table-dudo-your-turn-{_tag(viewport)}")
    page.check("#face-5")
    page.fill("#bid-quantity", "2")
    page.click("#do-bid")
    page.wait_for_selector("#bid-history li:has-text('bids 2 × five')")
    page.wait_for_selector(f"#turn-who:has-text('Turn of {other}')")
    assert _visible_count(page, "Your turn!") == 0

    facing = table_page(f"/matches/{match.pk}/", other, viewport)
    facing.wait_for_selector("#do-dudo")
    _in_first_screen(facing, "#do-dudo, #do-calza, #do-bid")
    assert facing.get_attribute("#do-dudo", "title")  # the term explained where it is used
    shot(facing, f"table-dudo-facing-a-bid-{_tag(viewport)}")
    facing.click("#do-dudo")
    facing.wait_for_selector("#reveal[data-phase='done']", timeout=15_000)
    call = facing.inner_text("#reveal .result")
    assert call.startswith(f"{other} called Dudo on {starter}'s 2 × five: ") and " counted" in call
    assert "→" not in facing.inner_text("#reveal")
    shot(facing, f"table-dudo-reveal-{_tag(viewport)}")

    # round 2: its first bid sends the reveal into the log
    state = state_of(match)
    loser = state.config.players[state.round.to_act]
    lost = facing if loser == other else page
    lost.wait_for_selector("#do-bid")
    assert lost.inner_text(f'[data-player="{loser}"] .count') == "4 dice"
    lost.click("#do-bid")
    for viewer in (page, facing):
        viewer.wait_for_selector("#reveal", state="detached")
        viewer.wait_for_selector("details.log-group[data-group^='round-2'] #bid-history li")
        first = viewer.locator("details.log-group[data-group^='round-1']")
        assert first.get_attribute("open") is None  # earlier rounds fold away, open on demand
        first.locator("summary").click()
        line = first.locator(".log-call p").inner_text()
        assert line.startswith(f"{other} called Dudo on {starter}'s 2 × five: ")
        assert f"{loser} loses a die" in line
        assert first.locator(".log-hand").count() == 2  # the dice shown at the call
    shot(facing, f"table-dudo-log-round-2-{_tag(viewport)}")
    # the terms, in plain words
    facing.click("#terms summary")
    for term in (
        "dudo",
        "calza",
        "palifico",
        "paso",
        "salpicon",
        "de_mano",
        "de_huevo",
        "turning",
        "dormida",
    ):
        assert facing.is_visible(f"#term-{term}")


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_an_alalay_table_shows_which_dice_may_be_turned_and_why_boxes_give_nothing(
    table_page: Any, viewport: Any
) -> None:
    match = _match("alalay")
    first = state_of(match).entries[state_of(match).turn.seat].name if state_of(match).turn else None
    names = ("ana", "beto")
    pages = {name: table_page(f"/matches/{match.pk}/", name, viewport) for name in names}
    page = pages[first] if first else next(p for p in pages.values() if p.locator("#do-throw").count())
    page.wait_for_selector("#do-throw")
    _in_first_screen(page, "#do-throw")
    # The player opening the match in a second tab is told to everyone, and changes no seat's
    # presence: the table stays as it is (drawn again, the button a click may be landing on
    # would be a new one).
    # Settled first: both players shown here, and the log drawn to the match's version (its
    # scoresheet marks draw the table once more when it comes).
    expect(page.locator(".presence.here")).to_have_count(2)
    version = page.get_attribute("#match", "data-version")
    expect(page.locator(f"#game-log[data-version='{version}']")).to_have_count(1)
    page.evaluate(
        """() => { const handlers = window.cachoSocket.h, told = handlers.presence;
          handlers.presence = (d) => { document.documentElement.dataset.presenceTold = "yes";
            told.call(handlers, d); }; }"""
    )
    throw = page.query_selector("#do-throw")
    table_page(f"/matches/{match.pk}/", next(n for n, p in pages.items() if p is page), viewport)
    expect(page.locator("html[data-presence-told]")).to_have_count(1)
    assert throw.evaluate("button => button.isConnected")
    page.click("#do-throw")
    page.wait_for_selector("#do-reroll")
    buttons = page.locator("#turn-dice button.die-button")
    buttons.nth(0).click()
    buttons.nth(1).click()
    page.click("#do-reroll")
    page.wait_for_selector("#do-reroll", state="detached")
    # after a partial re-roll one die must be turned: the page says so, marks the dice and
    # says what each would become and score
    page.wait_for_selector("#must-turn")
    assert "Turn one die" in page.inner_text("#must-turn")
    assert page.locator(".turn-die.may-turn button.turnable").count() == 5
    captions = page.locator(".turn-caption").all_inner_texts()
    assert len(captions) == 5 and all(c.startswith("becomes ") for c in captions)
    _in_first_screen(page, "#turn-dice")
    shot(page, f"table-alalay-must-turn-{_tag(viewport)}")
    page.locator("#turn-dice button.turnable").first.click()
    page.wait_for_selector("#must-turn", state="detached")
    page.wait_for_selector("[data-score], [data-scratch]")
    # the score controls of the turn are on the first screen, the reasons beside the others
    _in_first_screen(page, "[data-score], [data-scratch]")
    # every open box that cannot be scored says why (the dice do not make it)
    for box in page.locator(".sheet.on-turn .box:not(.filled):not(.scratched)").all():
        if box.locator("[data-score]").count() == 0 and box.locator("[data-scratch]").count() == 0:
            assert box.locator(".why").inner_text(), box.inner_text()
    shot(page, f"table-alalay-score-{_tag(viewport)}")
    # the timed-out turn is worded, never the raw event name
    worded = page.evaluate(
        """async () => (await import('/static/frontend/js/words.js'))
          .eventSentence({t: 'turn_timed_out', d: {entry: 'ana'}}, (b) => b)"""
    )
    assert worded == "ana ran out of time: the server finishes the turn."
    page.locator("[data-score], [data-scratch]").first.click()
    page.wait_for_selector(
        "details.log-group[data-group='turn-1'] li[data-type='box_scored'],"
        " details.log-group[data-group='turn-1'] li[data-type='box_scratched']"
    )


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_paused_table_is_nobodys_turn_and_the_log_says_why(table_page: Any, viewport: Any) -> None:
    match = _match("dudo")
    starter = _starter(match)
    page = table_page(f"/matches/{match.pk}/", starter, viewport)
    page.wait_for_selector("#turn-who:has-text('Your turn!')")
    matches.rule(
        match.pk, {"kind": "pause"}, referee="rita", reason="Checking the dice", command_id=command_id()
    )
    page.wait_for_selector("#paused:not([hidden])")
    page.wait_for_selector("#bid-history li:has-text('The referee pauses the table: Checking the dice')")
    assert _visible_count(page, "Your turn!") == 0
    assert page.locator("#countdown").count() == 0
    assert page.locator("#table button:not([disabled])").count() == 0
    shot(page, f"table-paused-{_tag(viewport)}")
    # the referee voids the round: the log keeps it, marked, and a fresh round 1 follows
    matches.rule(
        match.pk,
        {"kind": "void-round", "round": 1},
        referee="rita",
        reason="Dice not shown",
        command_id=command_id(),
    )
    page.wait_for_selector("details.log-group.voided summary:has-text('voided by the referee')")
    voided = page.locator("li[data-type='round_voided']")
    assert voided.text_content() == "The referee voids round 1 and every round after it: Dice not shown"


def _finished_tournament_table() -> tuple[Any, Match, Any]:
    """A two-round Swiss tournament of ana and beto: round 1's table played out and round 2
    drawn, so ana has a next match."""
    from tournaments import services
    from tournaments.models import Membership, Table
    from tournaments.services.lifecycle import advance
    from tournaments.services.results import record_match

    boss = _user("olga")
    club = club_members.create_club("Club olga", "club-olga", boss)
    club_members.grant_role(club.pk, _user("rita"), Membership.REFEREE, boss)
    stages = [{"name": "Suiza", "format": "swiss", "params": {"rounds": 2, "table_size": 2}}]
    tournament = services.create_tournament(club.pk, boss, name="Copa", ruleset="dudo", stages=stages)
    for name in ("ana", "beto"):
        services.register(tournament.pk, boss, name=name, user=_user(name))
    services.start_tournament(tournament.pk, boss)
    table = Table.objects.get(round__stage__tournament=tournament, round__number=1)
    match = Match.objects.get(pk=table.match_id)
    rng = random.Random(3)
    while state_of(match).phase != "over":
        player, command = legal_bidding_move(state_of(match), rng)
        matches.submit(match.pk, player, command, command_id())
    record_match(match.pk)  # what the tournament's task does after the commit (no worker here)
    advance(tournament.pk)  # idempotent: draws round 2 unless the tournament's task already did
    following = Table.objects.get(round__stage__tournament=tournament, round__number=2)
    return tournament, match, following


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_finished_match_shows_its_result_history_and_where_to_go_next(
    table_page: Any, viewport: Any
) -> None:
    tournament, match, following = _finished_tournament_table()
    page = table_page(f"/matches/{match.pk}/", "ana", viewport)
    page.wait_for_selector("#end-screen[data-loaded='true']")
    winner = state_of(match)
    seat = Seat.objects.get(match=match, name=winner.config.players[winner.winner])
    assert seat.name.startswith("p")  # seated by the player id; shown by the account's name
    assert page.inner_text("#end-winner") == f"Winner: {seat.user.username}"
    assert page.get_attribute("#end-tournament", "href") == f"/tournaments/{tournament.pk}/"
    assert page.get_attribute("#end-standings", "href") == f"/tournaments/{tournament.pk}/#t-standings"
    assert page.locator("#end-replay").count() == 1
    assert page.get_attribute("#end-next", "href") == f"/matches/{following.match_id}/"
    assert page.locator("#end-places li").count() == 2  # the places the tournament counted
    assert "No bid yet" not in page.inner_text("body")
    assert _visible_count(page, "Your turn!") == 0
    assert page.inner_text("#turn-who") == "Match finished"
    page.wait_for_selector("details.log-group[data-group^='round-']")
    rounds = page.locator("details.log-group[data-group^='round-']").count()
    assert rounds >= 5  # a 5-dice player loses five times at least: every round is in the log
    assert page.locator(".log-call").count() >= 5
    shot(page, f"table-finished-{_tag(viewport)}")
