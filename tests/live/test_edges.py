"""The match socket at its edges, on a real server: a bad frame gets an error frame and the
socket stays open; the origin check compares scheme, host and port; a far-behind resync is
one state frame; a spectator spamming resyncs gets a bounded number of bytes while
`/healthz` keeps answering fast."""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import threading
import time
import urllib.request
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus

from cacho.models import Event, Match
from cacho.services import matches
from tests.cacho.helpers import command_id, legal_bidding_move, state_of
from tests.live.harness import is_event, open_socket, session_cookie, ws_url
from tests.test_foundation.helpers import Server

pytestmark = [pytest.mark.slow]


def seated_match(ruleset: str = "dudo", seats: tuple[str, ...] = ("ana", "beto")) -> Match:
    from django.contrib.auth import get_user_model

    match = matches.create_match(ruleset, list(seats), first_seat=0)
    for index, name in enumerate(seats):
        session_cookie(name)
        matches.take_seat(match.pk, index, get_user_model().objects.get(username=name))
    return match


def long_match(events: int, seed: int = 7) -> Match:
    """A live match with at least `events` events, played through the write path (six
    players of Dudo last long; a match that ends first is replaced by another)."""
    rng = random.Random(seed)
    while True:
        match = matches.create_match("dudo", [f"p{n}" for n in range(6)], first_seat=0)
        row = Match.objects.get(pk=match.pk)
        while row.status == Match.STATUS_LIVE and row.version < events:
            player, command = legal_bidding_move(state_of(match), rng)
            matches.submit(match.pk, player, command, command_id())
            row = Match.objects.get(pk=match.pk)
        if row.status == Match.STATUS_LIVE:
            return match


def stored(match: Match) -> list[tuple[int, str]]:
    return list(Event.objects.filter(stream=match).order_by("version").values_list("version", "hash"))


BAD_FRAMES: list[tuple[Any, str]] = [
    ('{"t": "command", "id": "a\\u0000b", "d": {"type": "dudo"}}', "invalid-text"),
    ('{"t": "command", "id": "ok", "d": {"type": "bid\\u0000"}}', "invalid-text"),
    ('{"t": "command", "id": "\\ud800", "d": {"type": "dudo"}}', "invalid-text"),
    ('{"t": "command", "id": "x", "d": {"type": "dudo", "n": "\\uffff"}}', "invalid-text"),
    ('{"t": "sync", "v": ' + "[" * 8000 + "]" * 8000 + "}", "json-too-deep"),
    ("[" * 8100, "json-too-deep"),
    ("x" * 20_000, "frame-too-large"),
    ("not json", "bad-json"),
    ('{"t": ["sync"]}', "unknown-frame-type"),  # (a list for a type crashed the parser)
    ('{"t": "sync", "v": NaN}', "bad-json"),
    (b"\x00\x01binary", "bad-frame"),
]


def test_a_bad_frame_gets_an_error_frame_and_the_socket_stays_open(server: Server) -> None:
    match = seated_match()
    before = stored(match)
    cookie = session_cookie("ana")
    url = ws_url(server, match.pk)

    async def scenario() -> list[str]:
        socket = await open_socket(url, cookie)
        await socket.next(lambda f: f["t"] == "state")
        codes = []
        for frame, _ in BAD_FRAMES:
            await socket.connection.send(frame)
            error = await socket.next(lambda f: f["t"] == "error")
            codes.append(error["code"])
            await socket.send({"t": "ping"})
            await socket.next(lambda f: f["t"] == "pong")  # still open and answering
        await socket.close()
        return codes

    assert asyncio.run(scenario()) == [code for _, code in BAD_FRAMES]
    assert stored(match) == before


def test_the_origin_check_compares_scheme_host_and_port(server: Server) -> None:
    match = seated_match()
    url = ws_url(server, match.pk)
    port = int(server.url.rsplit(":", 1)[1])

    async def scenario() -> None:
        for origin in (
            f"http://127.0.0.1:{port + 1}",  # the same host, another port
            "http://127.0.0.1",  # the default port is another port
            f"https://127.0.0.1:{port}",  # another scheme
            f"http://127.0.0.2:{port}",  # another host
            "null",
        ):
            with pytest.raises(InvalidStatus) as refused:
                await open_socket(url, origin=origin)
            assert refused.value.response.status_code == 403, origin
        same = await open_socket(url, origin=f"http://127.0.0.1:{port}")
        assert (await same.next())["t"] == "state"
        await same.close()

    asyncio.run(scenario())


def test_a_far_behind_resync_is_one_state_frame(server: Server) -> None:
    match = long_match(60)
    url = ws_url(server, match.pk)
    version = Match.objects.get(pk=match.pk).version

    async def scenario() -> list[dict[str, Any]]:
        socket = await open_socket(url)
        await socket.next(lambda f: f["t"] == "state")
        socket.frames.clear()
        await socket.send({"t": "sync", "v": 0})
        await socket.send({"t": "sync", "v": version - 3})  # near: the events themselves
        await socket.send({"t": "ping"})
        await socket.next(lambda f: f["t"] == "pong")
        await socket.close()
        return socket.frames

    frames = asyncio.run(scenario())
    kinds = [frame["t"] if not is_event(frame) else frame["v"] for frame in frames]
    assert kinds == ["state", version - 2, version - 1, version, "pong"], kinds
    assert frames[0]["v"] == version


def healthz_latencies(base: str, stop: threading.Event, out: list[float]) -> None:
    while not stop.is_set():
        started = time.perf_counter()
        with urllib.request.urlopen(base + "/healthz", timeout=10) as response:
            response.read()
        out.append(time.perf_counter() - started)


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


@pytest.mark.alone  # asserts a latency
def test_a_spectator_spamming_resyncs_gets_bounded_bytes_and_healthz_stays_fast(server: Server) -> None:
    """The resync attack: 200 `sync v=0` frames on a 134-event match (it got 26,800
    frames, 8.4 MB, and /healthz went from 30 to 169 ms)."""
    match = long_match(134)
    url = ws_url(server, match.pk)
    quiet: list[float] = []
    stop = threading.Event()
    prober = threading.Thread(target=healthz_latencies, args=(server.url, stop, quiet))
    prober.start()
    while len(quiet) < 25:  # the first few warm the server up
        time.sleep(0.01)
    during: list[float] = []

    async def scenario() -> tuple[int, int, float]:
        socket = await open_socket(url)
        await socket.next(lambda f: f["t"] == "state")
        stop.set()
        prober.join()
        stop.clear()
        probe = threading.Thread(target=healthz_latencies, args=(server.url, stop, during))
        probe.start()
        started = time.perf_counter()
        frame = json.dumps({"t": "sync", "v": 0})
        for _ in range(200):
            await socket.connection.send(frame)
        await socket.connection.send(json.dumps({"t": "ping"}))
        received = 0
        for _ in range(201):  # one answer per frame: a state, or a `rate-limited` error
            raw = await asyncio.wait_for(socket.connection.recv(), 30)
            received += len(raw.encode() if isinstance(raw, str) else raw)
        count = 201
        elapsed = time.perf_counter() - started
        while len(during) < 25:
            await asyncio.sleep(0.01)
        stop.set()
        probe.join()
        await socket.close()
        return received, count, elapsed

    received, count, elapsed = asyncio.run(scenario())
    figures = {
        "frames": count,
        "bytes": received,
        "seconds": round(elapsed, 2),
        "healthz_quiet_p99_ms": round(p99(quiet[5:]) * 1000, 1),
        "healthz_during_p99_ms": round(p99(during) * 1000, 1),
        "healthz_during_median_ms": round(statistics.median(during) * 1000, 1),
        "healthz_samples": len(during),
    }
    print("spam figures:", json.dumps(figures))
    assert received < 400_000, figures  # 8.4 MB before the limits
    assert p99(during) < 0.100, figures
