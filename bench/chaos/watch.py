"""The chaos bench's clients and checks (bench/chaos): bots on sockets that reconnect
through faults, the ledger of what each socket acknowledged and saw, and the checks run at
the end (chains, acknowledged moves, event counts, gaps and repeats, recovery times)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from bench.chaos.cluster import SILENCE


@dataclass
class Ledger:
    """What the clients saw: acknowledged versions, arrivals per match, gaps and repeats."""

    acked: set[tuple[str, int]] = field(default_factory=set)
    arrivals: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    gaps: list[str] = field(default_factory=list)
    repeats: list[str] = field(default_factory=list)
    finished: set[str] = field(default_factory=set)
    reconnects: int = 0
    stalls: list[str] = field(default_factory=list)
    reasons: dict[str, int] = field(default_factory=lambda: defaultdict(int))


def watch_frames(ledger: Ledger, match_id: str, last: dict[str, Any]) -> Any:
    """A connection's frame check: events follow on from the last version known (a state
    frame resets it: a resync), never twice, never with a gap. `last` has the version and
    when the last frame came."""
    last.update(v=None, at=time.monotonic())

    def on_frame(frame: dict[str, Any]) -> None:
        last["at"] = time.monotonic()
        kind, version = frame.get("t"), frame.get("v")
        if kind == "state":
            last["v"] = frame["d"]["version"]
            if frame["d"].get("status") != "live":
                ledger.finished.add(match_id)
        elif kind == "ack":
            if frame.get("ok"):
                ledger.acked.add((match_id, int(frame["v"])))
        elif isinstance(version, int) and kind not in ("presence", "pong", "error"):
            ledger.arrivals[match_id].append(time.monotonic())
            if last["v"] is not None:
                if version <= last["v"]:
                    ledger.repeats.append(f"{match_id} v{version} after v{last['v']}")
                elif version != last["v"] + 1:
                    ledger.gaps.append(f"{match_id} v{version} after v{last['v']}")
            last["v"] = max(version, last["v"] or 0)

    return on_frame


async def seat(urls: list[str], match_id: str, cookie: str | None, seed: int, think: float, ledger: Ledger,
               until: float) -> None:  # fmt: skip
    """One seat (or, without a cookie, a spectator): plays until the match ends, reconnecting
    (to the next web process) whenever its socket goes."""
    from cacho.live.bot import Bot

    attempt = seed
    while time.monotonic() < until and match_id not in ledger.finished:
        url = urls[attempt % len(urls)] + f"/ws/matches/{match_id}/"
        origin = urls[attempt % len(urls)].replace("ws://", "http://")  # the origin check takes the port
        last: dict[str, Any] = {}
        on_frame = watch_frames(ledger, match_id, last)
        bot = Bot(url, headers={"Cookie": cookie} if cookie else {}, origin=origin,
                  seed=attempt, think_seconds=think, on_frame=on_frame)  # fmt: skip
        playing = asyncio.create_task(bot.play(timeout=max(0.1, until - time.monotonic())))
        while not playing.done():
            await asyncio.wait({playing}, timeout=SILENCE)
            if not playing.done() and time.monotonic() - last["at"] > SILENCE:
                # Every table moves within a turn's time: a socket silent longer missed
                # something (noted, then the seat reconnects: a state frame catches it up).
                playing.cancel()
                version = await database(match_version, match_id)
                if version != last["v"]:
                    ledger.stalls.append(
                        f"{match_id} seat {seed}: saw v{last['v']}, the match is at v{version}"
                    )
        try:
            await playing
        except (Exception, asyncio.CancelledError) as exc:  # the socket went (a fault): reconnect
            ledger.reasons[type(exc).__name__] += 1
        if bot.report.finished:
            ledger.finished.add(match_id)
            return
        attempt += 1
        ledger.reconnects += 1
        await asyncio.sleep(0.2)


def match_version(match_id: str) -> int:
    from cacho.models import Match

    return int(Match.objects.values_list("version", flat=True).get(pk=match_id))


def check(made: list[tuple[str, list[str]]], ledger: Ledger) -> dict[str, Any]:
    from cacho.models import Event, Match
    from cacho.services.verify import verify_match

    broken, lost, counts = [], [], []
    for match_id, _ in made:
        match = Match.objects.get(pk=match_id)
        report = verify_match(match)
        if not report["valid"]:
            broken.append(f"{match_id}: {report['error']}")
        if Event.objects.filter(stream_id=match_id).count() != match.version:
            counts.append(match_id)
    versions = {
        (str(stream), version) for stream, version in Event.objects.values_list("stream_id", "version")
    }
    lost = sorted(f"{m} v{v}" for m, v in ledger.acked if (m, v) not in versions)
    return {"broken": broken, "lost": lost, "count-differs": counts}


def recovery(faults: list[tuple[str, float]], ledger: Ledger) -> dict[str, list[float]]:
    """Per fault kind: seconds from the fault to the next event at each table still in play."""
    found: dict[str, list[float]] = defaultdict(list)
    for kind, at in faults:
        for times in ledger.arrivals.values():
            after = [t for t in times if t > at]
            if after and any(t < at for t in times):
                found[kind].append(after[0] - at)
    return found


async def database(function: Any, *args: Any) -> Any:
    """A call of the bench's own to the database, in a thread, again after a fault took its
    connection (the faults end the bench's connections too)."""
    from django.db import connections
    from django.db.utils import InterfaceError, OperationalError

    def attempt() -> Any:
        for tries in range(300):
            try:
                return function(*args)
            except (OperationalError, InterfaceError):
                if tries == 299:
                    raise
                for connection in connections.all():
                    connection.close_if_unusable_or_obsolete()
                    with contextlib.suppress(Exception):
                        connection.close()
                time.sleep(0.2)
        raise AssertionError("unreachable")

    return await asyncio.to_thread(attempt)
