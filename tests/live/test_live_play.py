"""Live play over real sockets: uvicorn + PostgreSQL + Redis (+ a real Celery worker)."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from cacho.models import Event, Match
from cacho.services import matches
from tests.live.harness import (
    db,
    is_event,
    open_socket,
    origin_of,
    session_cookie,
    wait_for,
    ws_url,
)
from tests.test_foundation.helpers import Server, serve

pytestmark = [pytest.mark.slow]


def _new_match(
    ruleset: str = "dudo", seats: tuple[str, ...] = ("ana", "beto"), turn_seconds: int = 30
) -> Match:
    match = matches.create_match(ruleset, list(seats), turn_seconds=turn_seconds, first_seat=0)
    for index, name in enumerate(seats):
        session_cookie(name)  # the user exists
        from django.contrib.auth import get_user_model

        matches.take_seat(match.pk, index, get_user_model().objects.get(username=name))
    return match


def _to_act(state_frame: dict[str, Any]) -> str:
    return state_frame["d"]["state"]["round"]["to_act"]


def _hidden_dice_ok(frame: dict[str, Any], me: str | None) -> None:
    """A round's dice in any frame are only the viewer's own (or none)."""
    if frame.get("t") == "round_started":
        assert set(frame["d"]["dice"]) <= ({me} if me else set()), frame
    if frame.get("t") == "state" and frame["d"]["state"].get("round"):
        assert set(frame["d"]["state"]["round"]["dice"]) <= ({me} if me else set()), frame
    # The last event frame of a write carries the view after it: to the player it puts on
    # turn, and to every socket that asked for views.
    if frame.get("t") != "state" and isinstance(frame.get("state"), dict) and frame["state"].get("round"):
        assert set(frame["state"]["round"]["dice"]) <= ({me} if me else set()), frame


def test_two_players_and_a_spectator_play_a_round(server: Server) -> None:
    _play_a_round(server)


def _play_a_round(server: Server) -> None:
    match = _new_match()
    cookies = {name: session_cookie(name) for name in ("ana", "beto")}
    url = ws_url(server, match.pk)

    async def scenario() -> dict[str, list[dict[str, Any]]]:
        # Each socket as the match page opens it, asking for views.
        sockets = {name: await open_socket(url + "?views=1", cookies[name]) for name in ("ana", "beto")}
        sockets["watcher"] = await open_socket(url + "?views=1")
        states = {name: await sock.next(lambda f: f["t"] == "state") for name, sock in sockets.items()}
        starter = _to_act(states["ana"])
        other = "beto" if starter == "ana" else "ana"
        await sockets[starter].send(
            {"t": "command", "id": "c1", "d": {"type": "bid", "quantity": 1, "face": 2}}
        )
        ack = await sockets[starter].next(lambda f: f["t"] == "ack")
        assert ack["ok"] and ack["id"] == "c1"
        await sockets[other].next(lambda f: is_event(f, "bid_made"))
        await sockets[other].send({"t": "command", "id": "c2", "d": {"type": "dudo"}})
        resolved = {
            name: await sock.next(lambda f: is_event(f, "round_resolved")) for name, sock in sockets.items()
        }
        for frame in resolved.values():  # everyone sees the same reveal: all the dice
            assert set(frame["d"]["revealed"] and dict(frame["d"]["revealed"])) == {"ana", "beto"}
        nxt = {
            name: await sock.next(lambda f: is_event(f, "round_started")) for name, sock in sockets.items()
        }
        assert nxt["watcher"]["v"] == nxt["ana"]["v"] == nxt["beto"]["v"]
        for sock in sockets.values():
            await sock.close()
        return {name: sock.frames for name, sock in sockets.items()}

    frames = asyncio.run(scenario())
    for name, seen in frames.items():
        for frame in seen:
            _hidden_dice_ok(frame, None if name == "watcher" else name)
    versions = [f["v"] for f in frames["watcher"] if is_event(f)]
    assert versions == sorted(versions) and len(set(versions)) == len(versions)
    # Each socket's view came in the last frame of each write (checked above for dice).
    for seen in frames.values():
        assert any(isinstance(f.get("state"), dict) for f in seen if is_event(f))


def test_a_socket_from_a_foreign_origin_is_refused(server: Server) -> None:
    match = _new_match()

    async def scenario() -> None:
        with pytest.raises(Exception) as refused:
            await open_socket(ws_url(server, match.pk), origin="http://evil.example")
        assert "403" in str(refused.value)
        unknown = await open_socket(ws_url(server, "00000000-0000-0000-0000-000000000000"))
        with pytest.raises(ConnectionClosed):  # closed: no such match
            await unknown.next(timeout=5)
        assert unknown.connection.close_code == 4404

    asyncio.run(scenario())


def test_garbage_frames_get_error_frames_and_change_nothing(server: Server) -> None:
    match = _new_match()
    cookie = session_cookie("ana")
    before = Match.objects.get(pk=match.pk).version

    async def scenario() -> list[dict[str, Any]]:
        sock = await open_socket(ws_url(server, match.pk), cookie)
        await sock.next(lambda f: f["t"] == "state")
        garbage = [
            "not json",
            "[]",
            json.dumps({"t": "bogus"}),
            json.dumps({"t": "command", "id": "x"}),
            json.dumps({"t": "command", "id": "", "d": {"type": "dudo"}}),
            json.dumps({"t": "command", "id": "y", "d": {"type": "bid", "quantity": "3", "face": 2}}),
            json.dumps({"t": "command", "id": "z", "d": {"type": "teleport"}}),
            json.dumps({"t": "sync", "v": -1}),
            json.dumps({"t": "ping", "extra": 1}),
            "x" * 20_000,
        ]
        replies = []
        for text in garbage:
            await sock.connection.send(text)
            replies.append(await sock.next(lambda f: f["t"] in ("error", "ack")))
        await sock.send({"t": "ping"})
        await sock.next(lambda f: f["t"] == "pong")
        await sock.close()
        return replies

    replies = asyncio.run(scenario())
    assert all(r["t"] == "error" or (r["t"] == "ack" and r["ok"] is False) for r in replies), replies
    assert all(r["code"] for r in replies)
    assert Match.objects.get(pk=match.pk).version == before


def _play_while_caro_is_away(match_id: Any, actions: int = 3) -> None:
    """The others play on through the write path while caro's socket is gone."""
    from cacho.engine.games import game_for

    for number in range(actions):
        match = Match.objects.get(pk=match_id)
        game = game_for(match.ruleset)
        state = matches.load_state(match, game)
        to_act = game.to_act(state)
        if to_act in (None, "caro"):
            return
        legal = game.view(state, _player(to_act))["legal"]
        face = next(face for face, least in legal["bid_minimums"].items() if least is not None)
        bid = {"type": "bid", "quantity": legal["bid_minimums"][face], "face": face}
        matches.submit(match_id, to_act, bid, f"away-{number}")


def _player(name: str) -> Any:
    from cacho.engine.viewer import Viewer

    return Viewer.of_player(name)


def test_a_client_that_missed_events_converges(server: Server) -> None:
    """Two tabs of the same player: one drops mid-round and syncs; both end up alike."""
    match = _new_match(seats=("ana", "beto", "caro"))
    cookie = session_cookie("caro")
    url = ws_url(server, match.pk)

    async def scenario() -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
        steady = await open_socket(url, cookie)
        dropped = await open_socket(url, cookie)
        first = await dropped.next(lambda f: f["t"] == "state")
        await steady.next(lambda f: f["t"] == "state")
        await dropped.close()
        await db(_play_while_caro_is_away)(match.pk)
        current = await db(lambda: Match.objects.get(pk=match.pk).version)()
        back = await open_socket(url, cookie)
        await back.next(lambda f: f["t"] == "state")
        await back.send({"t": "sync", "v": first["v"]})
        missed: list[dict[str, Any]] = []
        while not missed or missed[-1]["v"] < current:
            missed.append(await back.next(lambda f: is_event(f)))
        kept: list[dict[str, Any]] = []
        while not kept or kept[-1]["v"] < current:
            kept.append(await steady.next(lambda f: is_event(f)))
        await back.send({"t": "state"})
        await steady.send({"t": "state"})
        final_back = await back.next(lambda f: f["t"] == "state")
        final_steady = await steady.next(lambda f: f["t"] == "state")
        for sock in (back, steady):
            await sock.close()
        return missed, kept, final_back, final_steady

    missed, kept, final_back, final_steady = asyncio.run(scenario())
    assert missed
    assert [(f["v"], f["t"], f["d"]) for f in missed] == [(f["v"], f["t"], f["d"]) for f in kept]
    assert final_back["v"] == final_steady["v"] == kept[-1]["v"]
    assert final_back["d"]["state"] == final_steady["d"]["state"]


@pytest.mark.alone  # asserts a latency
def test_a_turn_left_alone_is_played_by_the_timer_within_a_second(server: Server, worker: object) -> None:
    match = _new_match(turn_seconds=2)
    cookie = session_cookie("ana")

    async def scenario() -> tuple[int, float, dict[str, Any]]:
        sock = await open_socket(ws_url(server, match.pk), cookie)
        state = await sock.next(lambda f: f["t"] == "state")
        deadline = state["d"]["deadline"]
        frame = await sock.next(lambda f: is_event(f, "bid_made"), timeout=15)
        arrived = time.time() * 1000
        await sock.close()
        return deadline, arrived, frame

    deadline, arrived, frame = asyncio.run(scenario())
    assert frame["d"]["timed_out"] is True
    assert (frame["d"]["quantity"], frame["d"]["face"]) == (1, 2)
    assert arrived - deadline <= 1000, f"played {arrived - deadline:.0f} ms after the deadline"


def test_a_timer_delivered_three_times_plays_once(services: None, committed_db: None) -> None:
    match = _new_match(turn_seconds=1)
    row = Match.objects.get(pk=match.pk)
    assert row.deadline_ms is not None
    results = [matches.expire_turn(match.pk, row.version, row.deadline_ms + late) for late in (0, 10, 900)]
    assert sum(result is not None for result in results) == 1
    timed_out = [e for e in Event.objects.filter(stream=match) if e.payload.get("timed_out")]
    assert len(timed_out) == 1


def test_an_idle_read_of_the_channel_layer_never_times_out(services: None) -> None:
    """An idle socket's hub waits on the layer's read; redis-py 8's default 5 s socket
    timeout killed every idle consumer of a blocking read (docs/pitfalls.md). The layer the
    servers make from the settings reads without a socket timeout, and a receive idle for
    longer than that timeout still gets the next message."""
    from channels.layers import get_channel_layer
    from django.conf import settings

    assert settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]["socket_timeout"] is None

    async def idle_then_receive() -> dict[str, Any]:
        layer = get_channel_layer()
        channel = await layer.new_channel("idle.")
        waiting = asyncio.ensure_future(layer.receive(channel))
        # Past redis-py's 5 s default the read is still waiting, neither failed nor ended.
        done, _ = await asyncio.wait({waiting}, timeout=6)
        assert not done
        await layer.send(channel, {"type": "idle.ping"})
        message: dict[str, Any] = await asyncio.wait_for(waiting, 5)
        return message

    assert asyncio.run(idle_then_receive())["type"] == "idle.ping"


def test_with_the_worker_killed_the_sweep_plays_the_turn_exactly_once(
    env: dict[str, str], tmp_path: Any
) -> None:
    from tests.live.harness import celery_worker

    with celery_worker(env, tmp_path, name="doomed") as doomed:
        match = _new_match(turn_seconds=2)  # its timer task goes to the running worker
        doomed.wait_for("Task cacho.expire_turn[")  # received: an ETA task the worker holds
        doomed.kill()  # dies holding it (redelivered only after visibility_timeout)
    deadline = Match.objects.get(pk=match.pk).deadline_ms
    assert deadline is not None
    with celery_worker(env, tmp_path, beat=True, name="sweeper"):
        played = Event.objects.filter(stream=match, payload__timed_out=True)
        wait_for(played.exists, timeout=12)
        from cacho.live.timers import sweep_deadlines

        played_at = int(played.get().recorded_at.timestamp() * 1000)
        assert sweep_deadlines(played_at + 1000) == 0, "a later sweep (the next turn still has time)"
    timed_out = Event.objects.filter(stream=match, payload__timed_out=True)
    assert timed_out.count() == 1
    assert played_at >= deadline


def test_bots_play_a_whole_match_and_nobody_sees_a_hidden_die(server: Server) -> None:
    from cacho.live.bot import Bot

    seats = ("ana", "beto", "caro")
    match = _new_match("cacho-online", seats)
    cookies = {name: session_cookie(name) for name in seats}
    url = ws_url(server, match.pk)

    async def scenario() -> tuple[list[Any], list[dict[str, Any]]]:
        watcher = await open_socket(url)
        bots = [
            Bot(url, headers=cookies[name], origin=origin_of(url), seed=i) for i, name in enumerate(seats)
        ]
        reports = await asyncio.gather(*(bot.play(timeout=120) for bot in bots))
        await watcher.send({"t": "state"})
        await watcher.next(lambda f: f["t"] == "state" and f["d"]["status"] == "finished", timeout=20)
        await watcher.close()
        return list(reports), watcher.frames

    reports, watched = asyncio.run(scenario())
    assert all(report.finished for report in reports)
    assert Match.objects.get(pk=match.pk).status == Match.STATUS_FINISHED
    for name, report in zip(seats, reports, strict=True):
        for frame in report.frames:
            _hidden_dice_ok(frame, name)
    for frame in watched:
        _hidden_dice_ok(frame, None)
    assert any(is_event(frame, "round_resolved") for frame in watched)


def test_bots_finish_a_match_on_sockets_held_to_a_few_frames_a_second(
    env: dict[str, str], tmp_path: Path
) -> None:
    """A frame past the socket's rate is dropped with an error that does not say which: a
    command lost so must go again under its id, and is played once."""
    from cacho.live.bot import Bot

    seats = ("ana", "beto")
    match = _new_match("dudo", seats)
    cookies = {name: session_cookie(name) for name in seats}
    with serve({**env, "CACHO_LIVE_FRAME_BURST": "2", "CACHO_LIVE_FRAME_RATE": "12"}, tmp_path) as server:
        url = ws_url(server, match.pk)
        bots = [
            Bot(url, headers=cookies[name], origin=origin_of(url), seed=i) for i, name in enumerate(seats)
        ]

        async def scenario() -> list[Any]:
            return list(await asyncio.gather(*(bot.play(timeout=90) for bot in bots)))

        reports = asyncio.run(scenario())
    assert all(report.finished for report in reports)
    assert Match.objects.get(pk=match.pk).status == Match.STATUS_FINISHED
    errors = [f for report in reports for f in report.frames if f.get("t") == "error"]
    assert errors and {f["code"] for f in errors} == {"rate-limited"}
    assert sum(report.commands_resent for report in reports) > 0
    runs: dict[str, list[int]] = {}
    for command_id, version in (
        Event.objects.filter(stream_id=match.pk).exclude(command_id=None).values_list("command_id", "version")
    ):
        runs.setdefault(command_id, []).append(version)
    for versions in runs.values():  # each command's events are one write: played once
        assert versions == list(range(min(versions), max(versions) + 1))
    played = {f["id"] for report in reports for f in report.frames if f.get("t") == "ack" and f["ok"]}
    assert played <= set(runs)


def test_presence_and_return_to_my_match(server: Server) -> None:
    from django.test import Client

    match = _new_match()
    cookies = {name: session_cookie(name) for name in ("ana", "beto")}
    url = ws_url(server, match.pk)

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        watcher = await open_socket(url)
        await watcher.next(lambda f: f["t"] == "state")
        ana = await open_socket(url, cookies["ana"])
        joined = await watcher.next(lambda f: f["t"] == "presence" and "ana" in f["d"]["players"])
        await ana.close()
        left = await watcher.next(lambda f: f["t"] == "presence" and "ana" not in f["d"]["players"])
        await watcher.close()
        return joined, left

    joined, left = asyncio.run(scenario())
    assert joined["d"]["spectators"] == 1 and left["d"]["players"] == []
    client = Client()
    client.force_login(get_user("ana"))
    mine = client.get("/api/me/matches").json()
    assert [row["id"] for row in mine] == [str(match.pk)]
    assert mine[0]["seat"] == "ana" and mine[0]["status"] == "live"
    assert mine[0]["socket"] == f"/ws/matches/{match.pk}/"
    assert Client().get("/api/me/matches").status_code in (401, 403)


def get_user(name: str) -> Any:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username=name)


def test_a_watcher_sees_a_seat_taken_while_the_socket_is_open(server: Server) -> None:
    """Sockets keep the seats (they change only when a seat is taken): taking one tells the
    match's group, and each socket sends a state frame that shows the new holder."""
    from django.contrib.auth import get_user_model

    match = matches.create_match("dudo", ["ana", "beto"], first_seat=0)
    session_cookie("ana")
    session_cookie("beto")
    users = get_user_model().objects
    matches.take_seat(match.pk, 0, users.get(username="ana"))
    beto = users.get(username="beto")
    url = ws_url(server, match.pk)

    def holders(frame: dict[str, Any]) -> list[str | None]:
        return [seat["player"] for seat in frame["d"]["seats"]]

    async def watch_until_taken() -> list[str | None]:
        watcher = await open_socket(url)
        first = await watcher.next(lambda f: f["t"] == "state")
        assert holders(first) == ["ana", None]
        await watcher.send({"t": "state"})  # served from the socket's seats and the cache
        assert holders(await watcher.next(lambda f: f["t"] == "state")) == ["ana", None]
        await db(matches.take_seat)(match.pk, 1, beto)
        # Unasked: the socket sends a state with the seats as they are now.
        pushed = await watcher.next(lambda f: f["t"] == "state", timeout=10)
        await watcher.connection.close()
        return holders(pushed)

    assert asyncio.run(watch_until_taken()) == ["ana", "beto"]
