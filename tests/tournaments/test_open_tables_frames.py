"""The open tables' frames (the lobby's list, a table's seat changes) never carry anything
hidden: seeded random runs of opening, sitting, leaving, bots, starting and playing, with
every frame the lobby's and the table's sockets receive (read from the real channel layer)
checked to be exactly the public table (no die, no seed, no private link's secret), and a
private table's frames never reaching the lobby."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model

from cacho.engine.games import game_for
from cacho.models import DiceSeed, Match
from cacho.services import matches as match_service
from cacho.services import notices
from cacho.services.bot_play import play_bots
from tournaments.errors import TournamentError
from tournaments.open_tables import service
from tournaments.open_tables.live import LOBBY_GROUP, table_group
from tournaments.open_tables.models import OpenTable

pytestmark = pytest.mark.usefixtures("committed_db")

TABLE_KEYS = {
    "id",
    "ruleset",
    "ruleset_name",
    "options",
    "size",
    "turn_seconds",
    "rated",
    "private",
    "status",
    "host",
    "seats",
    "free",
    "match",
    "rematch",
    "rematch_of",
    "invited",
}
HIDDEN_KEYS = {"dice", "hands", "hand", "seed", "seeds", "token", "link", "state", "legal"}


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


class Listener:
    """A channel of the real layer in the lobby's group and in each table's group."""

    def __init__(self, *groups: str) -> None:
        self.layer = get_channel_layer()
        self.channel = async_to_sync(self.layer.new_channel)()
        self.groups: set[str] = set()
        for group in groups:
            self.join(group)

    def join(self, group: str) -> None:
        if group not in self.groups:
            async_to_sync(self.layer.group_add)(group, self.channel)
            self.groups.add(group)

    def drain(self) -> list[dict[str, Any]]:
        notices.settle()

        async def take() -> list[dict[str, Any]]:
            got = []
            while True:
                try:
                    got.append(await asyncio.wait_for(self.layer.receive(self.channel), 0.05))
                except TimeoutError:
                    return got

        return async_to_sync(take)()


# On SQLite (`sqlite_too`) the first run: the frames are built above the database, the same
# on both; tests/tournaments/test_open_tables.py runs every write of the tables on both.
@pytest.mark.parametrize("seed", [pytest.param(0, marks=pytest.mark.sqlite_too), *range(1, 4)])
def test_no_open_table_frame_carries_anything_hidden(seed: int, settings: Any) -> None:
    settings.CACHO_BOTS = "off"
    # The embedded install's layer, read here from one process's event loops (the Redis
    # pub/sub layer serves its channels to the loop that made them: tests/live covers it).
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    rng = random.Random(seed)
    users = [get_user_model().objects.create_user(username=f"p{seed}x{i}") for i in range(5)]
    lobby_socket, table_sockets = Listener(LOBBY_GROUP), Listener()
    frames: list[dict[str, Any]] = []
    lobby: list[dict[str, Any]] = []
    tables: list[OpenTable] = []
    for _step in range(24):
        user = rng.choice(users)
        kind = rng.choice(["open", "sit", "sit", "leave", "bots", "start", "play"])
        table = rng.choice(tables) if tables else None
        try:
            if kind == "open" or table is None:
                table = service.open_table(
                    user,
                    ruleset=rng.choice(["dudo", "cacho-chileno", "alalay"]),
                    size=rng.randint(2, 4),
                    private=rng.random() < 0.4,
                )
                tables.append(table)
                table_sockets.join(table_group(table.pk))
            elif kind == "sit":
                service.take_seat(table.pk, user, token=table.token if rng.random() < 0.5 else None)
            elif kind == "leave":
                service.leave(table.pk, user)
            elif kind == "bots":
                service.fill_bots(table.pk, table.host, strength="random", count=1)
            elif kind == "start":
                service.start(table.pk, table.host)
            else:
                _play_a_little(table, rng)
        except TournamentError:
            pass  # refused: nothing stored, maybe nothing announced
        lobby += lobby_socket.drain()
        frames += table_sockets.drain()
    assert frames, "the run announced nothing"
    secrets = set(DiceSeed.objects.values_list("seed", flat=True)) | {
        t.token for t in OpenTable.objects.all()
    }
    private = set(OpenTable.objects.filter(private=True).values_list("pk", flat=True))
    for message in frames + lobby:
        assert message["type"] == "open.table"
        table = message["table"]
        assert set(table) == TABLE_KEYS
        assert not (_keys(table) & HIDDEN_KEYS)
        text = json.dumps(message)
        assert not any(secret in text for secret in secrets)
        for seat in table["seats"]:
            assert set(seat) == {"index", "player", "bot"}
    assert lobby and not any(m["table"]["id"] in private for m in lobby)


def _play_a_little(table: OpenTable, rng: random.Random) -> None:
    table.refresh_from_db()
    if table.match_id is None:
        return
    play_bots(table.match_id)
    match = Match.objects.get(pk=table.match_id)
    if match.status != Match.STATUS_LIVE:
        return
    game = game_for(match.ruleset)
    state = match_service.load_state(match, game)
    seat = game.to_act(state)
    if seat is not None:
        payload = game.bot_payload(state, seat, rng)
        if payload is not None:
            match_service.submit(match.pk, seat, payload, f"t-{rng.getrandbits(32)}")
