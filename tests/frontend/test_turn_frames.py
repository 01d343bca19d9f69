"""The match page draws what a write changed from the last frame of that write, which
carries the view after it, the match's status and its deadline (the page's socket asks for
views, `?views=1`): neither the player who moved, nor the player the move puts on turn,
nor a spectator asks the server for a state (docs/live.md)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from cacho.services import matches
from tests.cacho.helpers import state_of
from tests.live.harness import session_cookie
from tests.test_foundation.helpers import Server

pytestmark = [pytest.mark.slow]


def _page(
    browser: Any, server: Server, user: str | None, sent: list[dict[str, Any]], errors: list[str]
) -> Any:
    context = browser.new_context(locale="en", viewport={"width": 1280, "height": 800})
    if user is not None:
        name, value = session_cookie(user)["Cookie"].split("=", 1)
        context.add_cookies([{"name": name, "value": value, "url": server.url}])
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on(
        "websocket", lambda socket: socket.on("framesent", lambda payload: sent.append(json.loads(payload)))
    )
    return page


def test_the_pages_draw_a_write_from_its_last_frame_without_asking(browser: Any, server: Server) -> None:
    match = matches.create_match("dudo", ["ana", "beto"], turn_seconds=600)
    for index, name in enumerate(("ana", "beto")):
        session_cookie(name)
        matches.take_seat(match.pk, index, get_user_model().objects.get(username=name))
    match.refresh_from_db()
    state = state_of(match)
    starter = state.config.players[state.round.to_act]
    other = "beto" if starter == "ana" else "ana"
    errors: list[str] = []
    sent_by_starter: list[dict[str, Any]] = []
    sent_by_other: list[dict[str, Any]] = []
    sent_by_spectator: list[dict[str, Any]] = []
    mover = _page(browser, server, starter, sent_by_starter, errors)
    facing = _page(browser, server, other, sent_by_other, errors)
    watching = _page(browser, server, None, sent_by_spectator, errors)
    try:
        for page in (mover, facing, watching):
            page.goto(f"{server.url}/matches/{match.pk}/")
            page.wait_for_selector(f"#match[data-version='{match.version}']")
        mover.wait_for_selector("#turn-who:has-text('Your turn!')")
        facing.wait_for_selector(f"#turn-who:has-text('Turn of {starter}')")
        facing.wait_for_selector("#countdown")
        watching.wait_for_selector("#spectator-note")
        sent_by_other.clear()
        sent_by_starter.clear()
        sent_by_spectator.clear()

        mover.check("#face-4")
        mover.fill("#bid-quantity", "2")
        mover.click("#do-bid")

        # The bid's frame puts the other player on turn: its controls, its clock and the
        # version come from that frame.
        facing.wait_for_selector("#do-dudo")
        facing.wait_for_selector("#turn-who:has-text('Your turn!')")
        facing.wait_for_selector(f"#match[data-version='{match.version + 1}']")
        facing.wait_for_selector("#countdown")
        assert "2 × four" in facing.inner_text("#current-bid")
        mover.wait_for_selector(f"#turn-who:has-text('Turn of {other}')")
        mover.wait_for_selector(f"#match[data-version='{match.version + 1}']")
        watching.wait_for_selector(f"#match[data-version='{match.version + 1}']")
        watching.wait_for_selector(f"#turn-who:has-text('Turn of {other}')")
        assert "2 × four" in watching.inner_text("#current-bid")
        assert "2 × four" in mover.inner_text("#current-bid")
        for sent in (sent_by_starter, sent_by_other, sent_by_spectator):
            assert [frame for frame in sent if frame.get("t") == "state"] == []
    finally:
        for page in (mover, facing, watching):
            page.context.close()
    assert errors == [], errors
