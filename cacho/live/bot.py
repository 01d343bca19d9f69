"""A bot that plays legal moves over the real match websocket, as any client would:
for the tests, the benchmarks and the demo tables.

It knows only what its socket shows it (the viewer-filtered state), asks for a fresh
state after each event, and when it is on turn sends a random legal command.
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


@dataclass
class BotReport:
    commands_sent: int = 0
    refused: list[dict[str, Any]] = field(default_factory=list)
    frames: list[dict[str, Any]] = field(default_factory=list)
    last_state: dict[str, Any] | None = None
    finished: bool = False


def _bidding_command(state: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    legal = state.get("legal") or {}
    if not legal.get("on_turn"):
        return None
    actions = list(legal.get("actions", []))
    choices: list[dict[str, Any]] = []
    minimums = {int(face): least for face, least in (legal.get("bid_minimums") or {}).items()}
    maximums = {int(face): most for face, most in (legal.get("bid_maximums") or {}).items()}
    faces = [face for face, least in minimums.items() if least is not None]
    if "bid" in actions and faces:
        face = rng.choice(faces)
        least = minimums[face]
        most = maximums.get(face) or least
        bid: dict[str, Any] = {
            "type": "bid",
            "quantity": rng.randint(least, min(most, least + 1)),
            "face": face,
        }
        if legal.get("directions"):
            bid["direction"] = rng.choice(legal["directions"])
        choices += [bid, bid]
    choices += [{"type": name} for name in actions if name in ("dudo", "calza", "deny", "salpicon")]
    return rng.choice(choices) if choices else None


def _alalay_command(state: dict[str, Any], me: str, rng: random.Random) -> dict[str, Any] | None:
    turn = state.get("turn")
    if not turn or turn.get("entry") != me:
        return None
    legal = turn["legal"]
    if legal["throw"]:
        return {"type": "throw"}
    if legal["reroll"] and (not legal["score"] or rng.random() < 0.5):
        dice = list(turn["dice"])
        return {"type": "reroll", "keep": [d for d in dice if rng.random() < 0.5][:4]}
    if turn["must_turn"] and legal["turn"]:
        return {"type": "turn", "position": rng.choice(legal["turn"])}
    if legal["score"]:
        return {"type": "score", "box": rng.choice(legal["score"])}
    if legal["scratch"]:
        return {"type": "scratch", "box": rng.choice(legal["scratch"])}
    return None


def choose_command(match: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A random legal command for the seat this state was made for, or None when not on turn."""
    state = match.get("state") or {}
    viewer = match.get("viewer") or {}
    if match.get("status") != "live" or viewer.get("kind") != "player":
        return None
    if match.get("game") == "alalay":
        return _alalay_command(state, state.get("you") or viewer.get("player"), rng)
    return _bidding_command(state, rng)


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
        self._pending: str | None = None

    async def play(self, timeout: float = 120.0) -> BotReport:
        """Play until the match is over (or `timeout` seconds pass)."""
        async with connect(self.url, additional_headers=self.headers, origin=self.origin) as socket:  # type: ignore[arg-type]
            await asyncio.wait_for(self._loop(socket), timeout)
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
        self.report.commands_sent += 1
        await socket.send(
            json.dumps({"t": "command", "id": self._pending, "v": match["version"], "d": command})
        )


def now() -> float:
    return time.perf_counter()
