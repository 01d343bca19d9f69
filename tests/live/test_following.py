"""A server process follows a match written by another process from the notices alone
(`state_cache.follow_notice`): its cached state and head equal the writer's at every step,
and the state frames it makes from them equal the store's, for every viewer."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Coroutine
from typing import Any

import pytest
from channels.layers import InMemoryChannelLayer, get_channel_layer

from cacho.engine.games import game_for
from cacho.engine.viewer import Viewer
from cacho.live import reads
from cacho.live.hub import HUB_PREFIX, Hub
from cacho.models import Match
from cacho.services import matches, notices
from cacho.services.dispatch import DISPATCH
from cacho.services.presentation import fixed_fields
from cacho.services.state_cache import STATES, Cached, follow_notice
from tests.cacho.helpers import command_id, legal_bidding_move

pytestmark = pytest.mark.usefixtures("committed_db")


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


class Listener:
    """An event loop of its own, as a server process's hub has: the pub/sub layer keeps its
    subscriptions per loop, so joining and receiving happen on this one."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()

    def run(self, coroutine: Coroutine[Any, Any, Any], timeout: float = 10) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)


def next_notice(listener: Listener, layer: Any, channel: str, version: int) -> dict[str, Any]:
    """The notice of `version` (an earlier one still in flight is skipped)."""
    while True:
        notice: dict[str, Any] = listener.run(layer.receive(channel))
        if notice.get("version", 0) >= version:
            assert notice["version"] == version
            return notice


def test_a_process_follows_another_ones_writes_from_the_notices() -> None:
    layer = get_channel_layer()
    match = matches.create_match("dudo", ["ana", "beto", "caro"], first_seat=0)
    key = str(match.pk)
    DISPATCH.drain()
    notices.settle()  # the new match's own notice is out before this channel joins
    listener = Listener()
    channel = listener.run(layer.new_channel(HUB_PREFIX))  # as a server process's hub listens
    listener.run(layer.group_add(notices.group_name(key), channel))
    connections = connections_of(match)
    _, seats = reads.state_frame(key, connections[0])
    rng = random.Random(7)
    moves = 0
    notice: dict[str, Any] = {}
    while moves < 60:
        before = STATES.get(key)
        assert before is not None
        if before.state.phase == "over":
            break
        player, command = legal_bidding_move(before.state, rng)
        result = matches.submit(match.pk, player, command, command_id())
        notice = next_notice(listener, layer, channel, result.version)
        written = STATES.get(key)
        assert written is not None and written.version == result.version == notice["version"]

        # Another process: its cache is where this one's was before the move.
        STATES.clear()
        STATES.put(before)
        assert follow_notice(key, notice)
        followed = STATES.get(key)
        assert followed is not None and followed.version == written.version
        assert followed.state == written.state
        stored = Match.objects.get(pk=match.pk)
        for name in (*notices.NOTICE_HEAD, "version"):
            assert getattr(followed.head, name) == getattr(stored, name), name
        for connection in connections:
            from_store, _ = reads.state_frame(key, connection, seats)
            assert reads.cached_state_frame(connection, followed.head, followed.state, seats) == from_store
        assert not follow_notice(key, notice)  # already there: nothing moves
        moves += 1
    assert moves >= 10
    # A notice that does not follow the cache (one was lost) is ignored, not guessed.
    last = STATES.get(key)
    assert last is not None
    if last.state.phase != "over":
        skipped = {
            **notice,
            "version": last.version + 2,
            "events": [{**notice["events"][-1], "v": last.version + 2}],
        }
        assert not follow_notice(key, skipped)
        assert STATES.get(key) == last


def test_a_cached_head_is_never_changed_by_a_command_decided_on_it() -> None:
    """The write path decides on a copy: the entry it started from stays as it was."""
    match = matches.create_match("dudo", ["ana", "beto"], first_seat=0)
    before = STATES.get(str(match.pk))
    assert isinstance(before, Cached)
    version, pending_scope = before.head.version, before.head.pending_scope
    matches.submit(match.pk, "ana", {"type": "bid", "quantity": 1, "face": 2}, command_id())
    matches.submit(match.pk, "beto", {"type": "dudo"}, command_id())  # the round ends, its seed revealed
    after = STATES.get(str(match.pk))
    assert after is not None and after.head.pending_scope == "round-2" and after.version > version + 2
    assert (before.head.version, before.head.pending_scope) == (version, pending_scope)


def test_the_hub_moves_the_cache_before_its_sockets_have_the_notice() -> None:
    """In a process that did not write the move, the hub folds the notice into the
    process's cache before it hands it to the sockets, which render their views from it."""
    layer = get_channel_layer()
    match = matches.create_match("dudo", ["ana", "beto", "caro"], first_seat=0)
    key = str(match.pk)
    DISPATCH.drain()
    notices.settle()
    listener = Listener()
    channel = listener.run(layer.new_channel(HUB_PREFIX))
    listener.run(layer.group_add(notices.group_name(key), channel))
    before = STATES.get(key)
    assert before is not None
    player, command = legal_bidding_move(before.state, random.Random(3))
    result = matches.submit(match.pk, player, command, command_id())
    notice = next_notice(listener, layer, channel, result.version)
    written = STATES.get(key)
    assert written is not None and written.version == result.version
    STATES.clear()
    STATES.put(before)  # where another process's cache was

    async def a_socket_of_the_other_process() -> tuple[dict[str, Any], Cached | None]:
        hub = Hub(InMemoryChannelLayer())
        inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        await hub.join(notices.group_name(key), inbox)
        await hub.layer.group_send(notices.group_name(key), notice)
        handed = await asyncio.wait_for(inbox.get(), 5)
        return handed, STATES.get(key)

    handed, cached = asyncio.run(a_socket_of_the_other_process())
    assert handed["version"] == written.version
    assert cached is not None and cached.version == written.version
    assert cached.state == written.state
