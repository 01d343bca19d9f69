"""Notices to a match's channel-layer group, through the layer's public `group_send`.

After every commit the write path tells the sockets of the match that it moved on
(`publish`): the notice carries the new events' public wire form and the head's changing
fields, so that a socket one version behind renders the events without reading the store
and every process can move its cached state (state_cache.follow_notice). The committing
thread never waits for the layer:

* a layer that is not the in-memory one (channels-redis) is driven from one daemon
  thread per process running an event loop of its own (channels-redis keeps a
  connection pool per event loop, so this loop's pool lives as long as the process).
  `send` hands the message to that loop and returns; there `layer.group_send` is
  awaited, one group's notices in order (a socket that sees a version gap reads the
  store, so reordering would cost reads) and different groups' side by side;
* the in-memory layer (embedded mode) keeps its queues on the server's own event loop,
  where `async_to_sync` runs `group_send` (asgiref finds that loop from the thread the
  consumer's `database_sync_to_async` runs in).

Delivery is at most once, as the channel layer's own: a failure is logged and the notice
dropped, and so is one that would wait behind `MAX_PENDING` others (Redis slower than the
moves). Clients detect the version gap and catch up from the log (docs/live.md).
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import weakref
from collections import deque
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from cacho.eventlog.store import Head

logger = logging.getLogger(__name__)

MAX_PENDING = 10_000
# The head's fields that change with events and that other processes need to follow a
# match (never sent to a client; `finished_at` is not needed: a finished match is never
# decided on from a cache).
NOTICE_HEAD = ("status", "last_hash", "pending_scope", "turn_key", "deadline_ms")


GROUP_PREFIX = "match-"


def group_name(match_id: Any) -> str:
    return f"{GROUP_PREFIX}{match_id}"


def match_of_group(group: str) -> str | None:
    """The match id (as text) whose group is `group`; None for another group."""
    return group[len(GROUP_PREFIX) :] if group.startswith(GROUP_PREFIX) else None


def publish(head: Head, wire: list[dict[str, Any]]) -> None:
    """Tell the match's group that it is at `head.version`, with the events that got it there."""
    group = group_name(head.key)
    message = {
        "type": "match.events",
        "group": group,
        "version": head.version,
        "events": wire,
        "head": {name: getattr(head, name) for name in NOTICE_HEAD},
    }
    send(group, message)


def publish_seats(match_id: Any) -> None:
    """Tell the match's sockets that who holds the seats changed (they keep the seats)."""
    group = group_name(match_id)
    send(group, {"type": "match.seats", "group": group})


def _new_loop() -> asyncio.AbstractEventLoop:
    """uvloop's event loop where it is installed (uvicorn's standard extras bring it; the
    servers run on one), asyncio's otherwise: asyncio's own loop is Python (its selector,
    handles and transports), about 0.2 ms of CPU a live move more (docs/benchmarks.md)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()


class NoticeLoop:
    """An event loop on a daemon thread that awaits `group_send` for the callers' threads."""

    def __init__(self, max_pending: int = MAX_PENDING) -> None:
        self.max_pending = max_pending
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        # Owned by the loop's thread: each group's notices still to send, oldest first,
        # and the tasks sending them (referenced here so that they are not collected).
        self._queues: dict[str, deque[tuple[Any, dict[str, Any]]]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._pending = 0
        _LOOPS.add(self)

    def send(self, layer: Any, group: str, message: dict[str, Any]) -> None:
        """`layer.group_send(group, message)` on the notice loop; returns at once."""
        loop = self._loop or self._start()
        loop.call_soon_threadsafe(self._enqueue, layer, group, message)

    def settle(self, timeout: float = 10.0) -> None:
        """Wait until every notice handed over so far is sent (tests, a process's exit)."""
        loop = self._loop
        if loop is not None:
            asyncio.run_coroutine_threadsafe(self._idle(), loop).result(timeout)

    def _start(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                loop = _new_loop()
                threading.Thread(target=loop.run_forever, name="cacho-notices", daemon=True).start()
                self._loop = loop
            return self._loop

    def _enqueue(self, layer: Any, group: str, message: dict[str, Any]) -> None:
        if self._pending >= self.max_pending:
            logger.warning("notice to %s dropped: %d notices wait already", group, self._pending)
            return
        self._pending += 1
        queue = self._queues.get(group)
        if queue is not None:  # its sender is at work: it takes this one in turn
            queue.append((layer, message))
            return
        self._queues[group] = deque([(layer, message)])
        assert self._loop is not None
        task = self._loop.create_task(self._drain(group))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _drain(self, group: str) -> None:
        queue = self._queues[group]
        while queue:
            layer, message = queue[0]
            try:
                await layer.group_send(group, message)
            except Exception:
                logger.warning("notice to %s dropped", group, exc_info=True)
            queue.popleft()
            self._pending -= 1
        del self._queues[group]

    async def _idle(self) -> None:
        while self._queues:
            await asyncio.sleep(0.001)

    def _after_fork(self) -> None:
        """In a forked child the loop's thread does not exist, and the lock may have been
        held at the fork: the child starts its own loop on its first notice."""
        self._lock = threading.Lock()
        self._loop = None
        self._queues = {}
        self._tasks = set()
        self._pending = 0


_LOOPS: weakref.WeakSet[NoticeLoop] = weakref.WeakSet()


def _reset_after_fork() -> None:
    for notice_loop in list(_LOOPS):
        notice_loop._after_fork()


os.register_at_fork(after_in_child=_reset_after_fork)

NOTICE_LOOP = NoticeLoop()


def send(group: str, message: dict[str, Any]) -> None:
    """`group_send` without waiting for it, at most once; failures are logged."""
    layer = get_channel_layer()
    if layer is None:
        return
    if not isinstance(layer, InMemoryChannelLayer):
        NOTICE_LOOP.send(layer, group, message)
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:
        logger.warning("notice to %s dropped", group, exc_info=True)


def settle() -> None:
    NOTICE_LOOP.settle()
