"""A Redis that comes back empty (a restart without persistence) costs the open sockets a
resync, never their match: the server process joins its matches' groups again and every
socket catches up from the store, on both channel layers (pub/sub and lists)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.live.harness import is_event, open_socket, session_cookie, ws_url
from tests.live.own_redis import own_redis
from tests.live.test_live_play import _new_match, _to_act
from tests.test_foundation.helpers import serve

pytestmark = [pytest.mark.slow]


@pytest.mark.parametrize("layer", ["pubsub", "lists"])
def test_sockets_hear_moves_after_redis_restarts_empty(
    env: dict[str, str], tmp_path: Path, layer: str
) -> None:
    match = _new_match()
    cookies = {name: session_cookie(name) for name in ("ana", "beto")}
    with own_redis(tmp_path) as redis_server:
        server_env = {**env, "REDIS_URL": redis_server.url(), "CACHO_REDIS_LAYER": layer}
        with serve(server_env, tmp_path) as server:
            url = ws_url(server, match.pk)

            async def scenario() -> None:
                sockets = {name: await open_socket(url, cookies[name]) for name in ("ana", "beto")}
                watcher = await open_socket(url)
                states = {
                    name: await sock.next(lambda f: f["t"] == "state") for name, sock in sockets.items()
                }
                await watcher.next(lambda f: f["t"] == "state")
                starter = _to_act(states["ana"])
                other = "beto" if starter == "ana" else "ana"

                # No pause: a move that beats the server's noticing is caught up by the resync.
                redis_server.restart()

                # The first move after the restart: the other player and the watcher hear it
                # (an ack to its sender comes with the events, whatever the layer does).
                bid = {"t": "command", "id": "c1", "d": {"type": "bid", "quantity": 1, "face": 2}}
                await sockets[starter].send(bid)
                assert (await sockets[starter].next(lambda f: f["t"] == "ack"))["ok"]
                heard = await sockets[other].next(lambda f: is_event(f, "bid_made"), timeout=8)
                assert (await watcher.next(lambda f: is_event(f, "bid_made"), timeout=8))["v"] == heard["v"]

                # A socket opened after the restart hears the next move too.
                late = await open_socket(url)
                await late.next(lambda f: f["t"] == "state")
                await sockets[other].send({"t": "command", "id": "c2", "d": {"type": "dudo"}})
                await late.next(lambda f: is_event(f, "round_resolved"), timeout=8)
                await sockets[starter].next(lambda f: is_event(f, "round_resolved"), timeout=8)
                for sock in (*sockets.values(), watcher, late):
                    await sock.close()

            asyncio.run(scenario())


@pytest.mark.parametrize("layer", ["pubsub", "lists"])
def test_a_move_made_while_redis_was_away_reaches_the_sockets(
    env: dict[str, str], tmp_path: Path, layer: str
) -> None:
    """The notice of a move made while Redis was down is lost; the sockets resync once it is back
    (a player whose turn came in the gap would otherwise wait for ever)."""
    match = _new_match()
    cookies = {name: session_cookie(name) for name in ("ana", "beto")}
    with own_redis(tmp_path) as redis_server:
        server_env = {**env, "REDIS_URL": redis_server.url(), "CACHO_REDIS_LAYER": layer}
        with serve(server_env, tmp_path) as server:
            url = ws_url(server, match.pk)

            async def scenario() -> None:
                sockets = {name: await open_socket(url, cookies[name]) for name in ("ana", "beto")}
                states = {
                    name: await sock.next(lambda f: f["t"] == "state") for name, sock in sockets.items()
                }
                starter = _to_act(states["ana"])
                other = "beto" if starter == "ana" else "ana"

                redis_server.stop()
                bid = {"t": "command", "id": "c1", "d": {"type": "bid", "quantity": 1, "face": 2}}
                await sockets[starter].send(bid)
                assert (await sockets[starter].next(lambda f: f["t"] == "ack"))["ok"]
                redis_server.start()
                # Nothing more is played: the other player learns of the bid by the resync.
                await sockets[other].next(lambda f: is_event(f, "bid_made") or f["t"] == "state", timeout=8)
                for sock in sockets.values():
                    await sock.close()

            asyncio.run(scenario())
