"""What a socket is sent beside the events: a state frame serialised once per process for
the viewers who are no player and see the same (cacho.live.reads.state_text), and the view
in the last frame of a write (cacho.live.reads.frames_from_wire)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cacho.engine.games import game_for
from cacho.engine.viewer import Viewer
from cacho.eventlog.store import read_stream
from cacho.live import reads
from cacho.services import matches
from cacho.services.presentation import fixed_fields, seats_json, wire_event
from cacho.services.state_cache import STATES

pytestmark = [pytest.mark.django_db]


def _dice_shown(text: str) -> dict[str, list[int]]:
    return json.loads(text)["d"]["state"]["round"]["dice"]


def test_spectators_share_a_state_text_and_referees_and_players_see_theirs() -> None:
    match = matches.create_match("dudo", ["ana", "beto", "caro"], first_seat=0)
    game = game_for(match.ruleset)
    state = matches.load_state(match, game)
    cached = STATES.get(str(match.pk))
    assert cached is not None and cached.version == match.version
    seats = seats_json(match)
    key = reads.dumps(seats)

    def text(viewer: Viewer) -> str:
        connection = reads.Connection(
            str(match.pk), viewer, viewer.player, None, game, state, fixed_fields(match)
        )
        return reads.state_text(connection, cached.head, cached.state, seats, key)

    first, second = text(Viewer.spectator()), text(Viewer.spectator())
    assert first is second and _dice_shown(first) == {}
    referee = text(Viewer.referee())
    assert set(_dice_shown(referee)) == {"ana", "beto", "caro"}
    assert text(Viewer.referee()) is referee and text(Viewer.spectator()) is first
    ana = text(Viewer.of_player("ana"))
    assert set(_dice_shown(ana)) == {"ana"} and text(Viewer.of_player("ana")) is not ana
    assert json.loads(ana)["d"]["viewer"] == {"kind": "player", "player": "ana"}


def test_only_a_socket_that_asks_for_views_has_them_in_the_last_frame() -> None:
    """`?views=1` (the match page): the last frame of a write carries the viewer's view;
    any other socket gets the frames as they were (a bot's or a bench's spectator pays
    nothing for views it does not read), but the player put on turn always has its own."""
    match = matches.create_match("dudo", ["ana", "beto", "caro"], first_seat=0)
    game = game_for(match.ruleset)
    matches.submit(match.pk, "ana", {"type": "bid", "quantity": 2, "face": 3}, "views-1", None)
    cached = STATES.get(str(match.pk))
    assert cached is not None
    wire = [wire_event(event) for event in read_stream(match.pk, after=cached.version - 1)]

    def last(viewer: Viewer, views: bool) -> dict[str, Any]:
        connection = reads.Connection(
            str(match.pk), viewer, viewer.player, None, game, cached.state, fixed_fields(match)
        )
        texts = reads.frames_from_wire(connection, wire, cached.state, cached.head, views)
        return dict(json.loads(texts[-1]))

    assert "state" not in last(Viewer.spectator(), False)
    assert "state" not in last(Viewer.of_player("caro"), False)
    assert "state" in last(Viewer.of_player("beto"), False)  # put on turn by the bid
    watched = last(Viewer.spectator(), True)
    assert watched["state"]["round"]["dice"] == {} and watched["status"] == "live"
    caro = last(Viewer.of_player("caro"), True)
    assert set(caro["state"]["round"]["dice"]) == {"caro"} and caro["deadline"] == cached.head.deadline_ms
