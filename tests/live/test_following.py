"""A server process follows a match written by another process from the notices alone
(`matches.follow_notice`): its cached state and row equal the writer's at every step,
and the state frames it makes from them equal the store's, for every viewer."""

from __future__ import annotations

import copy
import random
import uuid
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from cacho.engine.games import game_for
from cacho.engine.viewer import Viewer
from cacho.live import reads
from cacho.models import Match
from cacho.services import matches
from cacho.services.dispatch import DISPATCH
from cacho.services.notices import HUB_PREFIX
from cacho.services.presentation import fixed_fields
from tests.cacho.helpers import command_id, legal_bidding_move

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_timers(settings: Any) -> None:
    settings.CACHO_TIMERS = "off"


def connections_of(match: Match) -> list[reads.Connection]:
    game = game_for(match.ruleset)
    state = matches.load_state(match, game)
    viewers = [Viewer.of_player(name) for name in state.config.players]
    viewers += [Viewer.spectator(), Viewer.referee()]
    return [
        reads.Connection(str(match.pk), viewer, viewer.player, None, game, state, fixed_fields(match))
        for viewer in viewers
    ]


def next_notice(layer: Any, channel: str, version: int) -> dict[str, Any]:
    """The notice of `version` (an earlier one still in flight is skipped)."""
    while True:
        notice: dict[str, Any] = async_to_sync(layer.receive)(channel)
        if notice.get("version", 0) >= version:
            assert notice["version"] == version
            return notice


def test_a_process_follows_another_ones_writes_from_the_notices() -> None:
    layer = get_channel_layer()
    match = matches.create_match("dudo", ["ana", "beto", "caro"], first_seat=0)
    key = str(match.pk)
    DISPATCH.drain()  # the new match's own notice is out before this channel joins
    channel = f"{HUB_PREFIX}{uuid.uuid4().hex}"  # as a server process's hub listens
    async_to_sync(layer.group_add)(matches.group_name(key), channel)
    connections = connections_of(match)
    _, seats = reads.state_frame(key, connections[0])
    rng = random.Random(7)
    moves = 0
    while moves < 60:
        before = matches.STATES.entry(key)
        assert before is not None and before[2] is not None
        if before[1].phase == "over":
            break
        before = (before[0], before[1], copy.copy(before[2]))
        player, command = legal_bidding_move(before[1], rng)
        result = matches.submit(match.pk, player, command, command_id())
        DISPATCH.drain()
        notice = next_notice(layer, channel, result.version)
        written = matches.STATES.entry(key)
        assert written is not None and written[0] == result.version == notice["version"]

        # Another process: its cache is where this one's was before the move.
        matches.STATES.clear()
        matches.STATES.put(key, *before)
        assert matches.follow_notice(key, notice)
        followed = matches.STATES.entry(key)
        assert followed is not None and followed[0] == written[0] and followed[1] == written[1]
        for name in (*matches.HEAD_FIELDS, "version"):
            assert getattr(followed[2], name) == getattr(Match.objects.get(pk=match.pk), name), name
        for connection in connections:
            from_store, _ = reads.state_frame(key, connection, seats)
            assert reads.cached_state_frame(connection, followed[2], followed[1], seats) == from_store
        assert not matches.follow_notice(key, notice)  # already there: nothing moves
        moves += 1
    assert moves >= 10
    # A notice that does not follow the cache (one was lost) is ignored, not guessed.
    version, state, _ = matches.STATES.entry(key) or (0, None, None)
    if state is not None and state.phase != "over":
        skipped = {**notice, "version": version + 2, "events": [{**notice["events"][-1], "v": version + 2}]}
        assert not matches.follow_notice(key, skipped)
        assert (matches.STATES.entry(key) or (None,))[0] == version
