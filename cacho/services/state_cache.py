"""Each process's cache of the matches it serves: a match's engine state and head at one
version, and how to load and follow them.

The write path decides on a cached entry (the append's version check catches a stale
one); a socket's state frame comes from it without a read; a notice written by another
process moves it on (`follow_notice`). A cached head is never changed: whoever decides
on it copies it first.

`load_state` takes, in order: the cached state brought forward with the stream's tail;
else the newest snapshot and the events after it (cacho.eventlog.snapshots); else a full replay.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cacho.engine.games import Game, game_for
from cacho.eventlog import snapshots
from cacho.eventlog.store import Head, read_stream
from cacho.models import Event, Match
from cacho.process.lru import LRU
from cacho.services.notices import NOTICE_HEAD

CACHED_MATCHES = 2048
# A finished match takes no more moves: only the last few stay, for the sockets still
# reading them, so a process's cache follows the matches in play and not every match it
# has served since it started.
FINISHED_MATCHES = 64


@dataclass(frozen=True, slots=True)
class Cached:
    """A match as this process last saw it: its engine state and its head, at one version."""

    state: Any
    head: Head

    @property
    def version(self) -> int:
        return self.head.version


class StateCache:
    def __init__(self, size: int = CACHED_MATCHES, finished: int = FINISHED_MATCHES) -> None:
        self._entries: LRU[str, Cached] = LRU(size)
        self._finished: LRU[str, Cached] = LRU(finished)

    def get(self, key: str) -> Cached | None:
        """The entry of the match whose id as text is `key`."""
        live, over = self._entries.get(key), self._finished.get(key)
        if live is None or (over is not None and over.version > live.version):
            return over
        return live

    def put(self, cached: Cached) -> None:
        """Remember `cached`, unless a newer version of the match is here already."""

        def newer(current: Cached | None) -> Cached | None:
            return None if current is not None and current.version > cached.version else cached

        def older(current: Cached) -> bool:
            return current.version <= cached.version

        key = cached.head.key
        if cached.head.status == Match.STATUS_LIVE:
            self._entries.update(key, newer)
            self._finished.discard(key, older)
        else:
            self._finished.update(key, newer)
            self._entries.discard(key, older)

    def clear(self) -> None:
        self._entries.clear()
        self._finished.clear()


STATES = StateCache()


def to_engine(game: Game, event: Event) -> Any:
    return game.event_from_dict({"type": event.type, **event.payload})


def engine_events(match: Match | Head, game: Game) -> list[Any]:
    """Every event of the match, as the engine's."""
    return [to_engine(game, event) for event in read_stream(match.id)]


def load_state(match: Match | Head, game: Game) -> Any:
    """The match's state at its row's version (and the cache's entry for it)."""
    head = match.copy() if isinstance(match, Head) else Head.of(match)
    cached = STATES.get(head.key)
    if cached is not None and cached.version == head.version:
        return cached.state
    if cached is not None and cached.version < head.version:
        state = cached.state
        for event in read_stream(head.id, after=cached.version):
            state = game.evolve(state, to_engine(game, event))
    else:
        state = _from_snapshot(head, game)
    STATES.put(Cached(state, head))
    return state


def _from_snapshot(head: Head, game: Game) -> Any:
    found = snapshots.load(head.id, head.version)
    if found is None:
        return game.replay(to_engine(game, event) for event in read_stream(head.id))
    version, state = found
    for event in read_stream(head.id, after=version):
        state = game.evolve(state, to_engine(game, event))
    return state


def follow_notice(match_id: Any, message: Mapping[str, Any]) -> bool:
    """Bring this process's entry of a match to a notice's version with the events and head
    it carries (written by another process, or by this one). Only when the entry is exactly
    at the version before the notice's events: anything else (a notice lost, or overtaken
    by a later one) is ignored, and the next load reads the store. True when it moved. The
    write path trusts the entry as it trusts its own: the append checks the version."""
    cached = STATES.get(str(match_id))
    events = message.get("events") or []
    head = message.get("head")
    if cached is None or not events or head is None:
        return False
    if events[0]["v"] != cached.version + 1 or events[-1]["v"] != message.get("version"):
        return False
    game = game_for(cached.head.ruleset)
    state = cached.state
    for item in events:
        state = game.evolve(state, game.event_from_dict({"type": item["t"], **item["payload"]}))
    moved = cached.head.copy()
    moved.version = events[-1]["v"]
    for name in NOTICE_HEAD:
        setattr(moved, name, head[name])
    STATES.put(Cached(state, moved))
    return True
