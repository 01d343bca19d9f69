"""A state frame is serialised once per process for the viewers who are no player and
see the same (cacho.live.reads.state_text): every spectator's is the spectator's, every
referee's the referee's, and a player's is never shared."""

from __future__ import annotations

import json

import pytest

from cacho.engine.games import game_for
from cacho.engine.viewer import Viewer
from cacho.live import reads
from cacho.services import matches
from cacho.services.presentation import fixed_fields, seats_json
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
