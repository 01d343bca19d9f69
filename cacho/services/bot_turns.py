"""Bots on turn: after a commit that puts a bot's seat on turn, its move is scheduled, as a
turn's deadline is (`services.deadlines`): the shell names what keeps it at start-up
(`register`): Celery (`cacho.tasks`, a task with a countdown) when `CACHO_BOTS` is
"celery", the serving process's own thread (`cacho.live.bot_turns`) when "in-process";
"off" keeps none (tests that play the bots themselves). `CACHO_BOTS` follows
`CACHO_TIMERS` unless set. Whichever runs calls `services.bot_play.play_bot_turn`, which
acts only if the match is still at the version it was scheduled for: a late, repeated or
lost run is harmless, and a lost one costs only the turn's clock (its timeout plays it).

A match's bot seats are fixed when it is created (`Seat.bot`), so the process keeps them
once read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from cacho.engine.games import Game
from cacho.eventlog.store import Head
from cacho.models import Match, Seat
from cacho.process.hot_settings import setting
from cacho.process.lru import LRU

Scheduler = Callable[[Any, int, int], None]  # (match id, version, delay in ms)
_SCHEDULERS: dict[str, Scheduler] = {}
_SEATS: LRU[str, Mapping[str, str]] = LRU(20_000)
NO_BOTS: Mapping[str, str] = MappingProxyType({})


def register(mode: str, scheduler: Scheduler) -> None:
    """`scheduler` plays the bots' turns when `CACHO_BOTS` is `mode` (apps' `ready`)."""
    _SCHEDULERS[mode] = scheduler


def mode() -> str:
    return str(setting("CACHO_BOTS", None) or setting("CACHO_TIMERS", "in-process"))


def think_ms() -> int:
    """How long a bot waits before it moves (people follow the table)."""
    return int(setting("CACHO_BOT_THINK_MS", 900))


def bot_seats(match_id: Any) -> Mapping[str, str]:
    """Seat name -> strength of the match's bots (kept once read: they never change)."""
    key = str(match_id)
    found = _SEATS.get(key)
    if found is None:
        rows = Seat.objects.filter(match_id=key).exclude(bot="").values_list("name", "bot")
        found = MappingProxyType(dict(rows)) if rows else NO_BOTS
        _SEATS.put(key, found)
    return found


def after_commit(head: Head, game: Game, state: Any, finished: bool) -> None:
    """Schedule the move of the bot this commit put on turn, if any."""
    if finished or head.status != Match.STATUS_LIVE or not head.turn_key:
        return
    player = game.to_act(state)
    if player is None or player not in bot_seats(head.key):
        return
    current = mode()
    if current == "off":
        return
    try:
        scheduler = _SCHEDULERS[current]
    except KeyError:
        raise LookupError(f"no bot runner registered for CACHO_BOTS={current!r}") from None
    scheduler(head.id, head.version, think_ms())
