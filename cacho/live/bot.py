"""A bot that plays legal moves over the real match websocket, as any client would (the
tests use it; bench/live's players use its choice of move, `choose_command`).

It knows only what its socket shows it (the viewer-filtered state): it asks for a state
when an event says it is on turn (or that nobody is: the match may be over) and after
each acknowledgement, and when it is on turn sends what the game's bot policy chooses
from that state (`Game.bot_payload_for_view`: the engine's one policy per game). (The
demo club's bots are not these: they play through the write path in the serving
process, tournaments.services.bots.)
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from cacho.engine.games import game_for

RATE_LIMITED_PAUSE = 0.25  # seconds before asking again once the server said "too many frames"


@dataclass
class BotReport:
    commands_sent: int = 0
    commands_resent: int = 0  # sent again after a `rate-limited` error
    refused: list[dict[str, Any]] = field(default_factory=list)
    frames: list[dict[str, Any]] = field(default_factory=list)
    last_state: dict[str, Any] | None = None
    finished: bool = False


def choose_command(match: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """The game's bot policy (`Game.bot_payload_for_view`) on this seat's view of the match,
    or None when it is not this seat's turn."""
    viewer = match.get("viewer") or {}
    if match.get("status") != "live" or viewer.get("kind") != "player":
        return None
    return game_for(match["ruleset"]).bot_payload_for_view(match.get("state") or {}, rng)


class Bot:
    """One seat played over one socket. `headers` authenticate it (a session cookie)."""

    def __init__(
        self,
        url: str,
        *,
        headers: dict[str, str] | None = None,
        origin: str | None = None,
        seed: int = 0,
        think_seconds: float = 0.0,
        on_frame: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        self.url = url
        self.headers = headers or {}
        self.origin = origin
        self.rng = random.Random(seed)
        self.think_seconds = think_seconds
        self.on_frame = on_frame
        self.report = BotReport()
        self._pending: str | None = None  # the id of the command sent and not yet acknowledged
        self._pending_text = ""  # ... and its frame, sent again after a `rate-limited` error
        self._retry: asyncio.Task[None] | None = None

    async def play(self, timeout: float = 120.0) -> BotReport:
        """Play until the match is over (or `timeout` seconds pass)."""
        async with connect(self.url, additional_headers=self.headers, origin=self.origin) as socket:  # type: ignore[arg-type]
            try:
                await asyncio.wait_for(self._loop(socket), timeout)
            finally:
                if self._retry is not None:
                    self._retry.cancel()
        return self.report

    async def _loop(self, socket: ClientConnection) -> None:
        me: str | None = None
        to_act: str | None = None
        async for raw in socket:
            frame = json.loads(raw)
            self.report.frames.append(frame)
            if self.on_frame is not None:
                self.on_frame(frame)
            kind = frame.get("t")
            if kind == "state":
                self.report.last_state = frame["d"]
                me = frame["d"]["viewer"]["player"]
                if frame["d"].get("status") != "live":
                    self.report.finished = True
                    return
                await self._maybe_act(socket, frame["d"])
            elif kind == "ack":
                if frame.get("id") == self._pending:
                    self._pending = None
                if not frame.get("ok"):
                    self.report.refused.append(frame)
                await socket.send(json.dumps({"t": "state"}))
            elif kind == "error" and frame.get("code") == "rate-limited":
                if self._retry is None or self._retry.done():
                    self._retry = asyncio.create_task(self._ask_again(socket))
            elif "v" in frame and kind not in ("presence", "pong", "error"):
                # The last event of each write says whose turn it is: ask for a state only
                # then (the legal moves come with it), or when the match may be over.
                to_act = frame.get("to_act", to_act)
                if self._pending is None and ("to_act" in frame and (to_act == me or to_act is None)):
                    await socket.send(json.dumps({"t": "state"}))

    async def _maybe_act(self, socket: ClientConnection, match: dict[str, Any]) -> None:
        if self._pending is not None:
            return
        command = choose_command(match, self.rng)
        if command is None:
            return
        if self.think_seconds:
            await asyncio.sleep(self.think_seconds)
        self._pending = uuid.uuid4().hex
        self._pending_text = json.dumps(
            {"t": "command", "id": self._pending, "v": match["version"], "d": command}
        )
        self.report.commands_sent += 1
        await socket.send(self._pending_text)

    async def _ask_again(self, socket: ClientConnection) -> None:
        """Past the socket's frame rate a frame was dropped, and the error does not say
        which: after a pause the unacknowledged command goes again under its id (a repeat is
        answered with the first result, never played twice), or else a state is asked. The
        errors that come meanwhile are answered by this one retry."""
        await asyncio.sleep(RATE_LIMITED_PAUSE)
        if self._pending is not None:
            self.report.commands_resent += 1
            await socket.send(self._pending_text)
        else:
            await socket.send(json.dumps({"t": "state"}))


def now() -> float:
    return time.perf_counter()
