"""One channel-layer subscription per match and server process, fanned out in process.

Without it every socket is a member of its match's group: a move watched by 500
spectators is 500 channel-layer messages (each pushed to Redis, popped, unpacked and
dispatched by channels-redis), and every waiting socket keeps a receive pending on the
layer. With it, a process joins a match's group once, on its own channel, when its first
socket for that match opens, and leaves it with the last; the group's messages (which
name their group) are handed to the local sockets' inboxes. A move is then one message
per server process, whatever the number of sockets; the hub moves the process's cached
state of the match with it (`state_cache.follow_notice`) before the sockets render it.

A Redis behind the layer that restarts (or comes back after an outage) has forgotten the
hub's memberships and dropped the notices sent meanwhile: the hub watches for it
(cacho.live.layer_watch), joins its groups again and has every socket resync from the store.

One hub per event loop (a server process has one; tests may run several in turn).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any

from django.conf import settings

from cacho.live.layer_watch import ServerWatch, redis_address
from cacho.services.notices import match_of_group
from cacho.services.state_cache import follow_notice

logger = logging.getLogger(__name__)

HUB_PREFIX = "hub-"  # the hubs' channel names (one per server process)
RESYNC = {"type": "match.resync"}  # to every socket after the layer lost notices

Inbox = asyncio.Queue[dict[str, Any]]


class Hub:
    def __init__(self, layer: Any) -> None:
        self.layer = layer
        self._sockets: dict[str, set[Inbox]] = {}
        self._channel: str | None = None
        self._pump: asyncio.Task[None] | None = None
        self._naming = asyncio.Lock()
        self._watch: asyncio.Task[None] | None = None

    async def join(self, group: str, inbox: Inbox) -> None:
        await self._ensure_watch()
        sockets = self._sockets.setdefault(group, set())
        sockets.add(inbox)
        if len(sockets) == 1:
            await self.layer.group_add(group, await self._ensure_pump())

    async def leave(self, group: str, inbox: Inbox) -> None:
        sockets = self._sockets.get(group)
        if sockets is None:
            return
        sockets.discard(inbox)
        if not sockets:
            del self._sockets[group]
            await self.layer.group_discard(group, await self._ensure_pump())

    async def _ensure_pump(self) -> str:
        if self._channel is None:
            async with self._naming:
                if self._channel is None:
                    # A channel of its own, read by this pump alone. Named by the layer: the
                    # pub/sub layer subscribes to it there, before any group names it.
                    self._channel = await self.layer.new_channel(HUB_PREFIX)
        if self._pump is None or self._pump.done():
            self._pump = asyncio.get_running_loop().create_task(self._run(self._channel))
        return self._channel

    async def _ensure_watch(self) -> None:
        if self._watch is not None and not self._watch.done():
            return
        address = redis_address(self.layer)
        if address is None:
            return
        async with self._naming:
            if self._watch is None or self._watch.done():
                # The server's identity is read before the first membership: a restart right
                # after it is a change, not the first identity seen.
                watch = ServerWatch(address)
                await watch.lost()
                self._watch = asyncio.get_running_loop().create_task(self._watch_layer(watch))

    async def _watch_layer(self, watch: ServerWatch) -> None:
        try:
            while True:
                await asyncio.sleep(settings.CACHO_LIVE_LAYER_CHECK)
                if await watch.lost() and not await self.rejoin():
                    watch.again()
        finally:
            await watch.close()

    async def rejoin(self) -> bool:
        """Every group again, then every socket reads what it missed from the store. Leaving
        first makes the pub/sub layer subscribe again (it keeps its own record of what it
        subscribed to); the lists layer only writes the membership again."""
        channel = await self._ensure_pump()
        for group in tuple(self._sockets):
            try:
                await self.layer.group_discard(group, channel)
                await self.layer.group_add(group, channel)
            except Exception:  # gone again: the watch tries once more when it is back
                logger.warning("live hub: joining %s again failed", group, exc_info=True)
                return False
        for group, sockets in tuple(self._sockets.items()):
            for inbox in tuple(sockets):
                inbox.put_nowait({**RESYNC, "group": group})
        return True

    async def _run(self, channel: str) -> None:
        while True:
            try:
                message = await self.layer.receive(channel)
            except asyncio.CancelledError:
                raise
            except Exception:  # a broken connection: the layer reconnects on the next call
                logger.warning("live hub: receive failed", exc_info=True)
                await asyncio.sleep(0.1)
                continue
            group = message.get("group", "")
            if message.get("type") == "match.events":
                self._follow(group, message)
            for inbox in tuple(self._sockets.get(group, ())):
                inbox.put_nowait(message)

    @staticmethod
    def _follow(group: str, message: dict[str, Any]) -> None:
        """The process's cached state of the match moved by the notice, once, before its
        sockets render it (each of them read the cache to see whether it had moved)."""
        match_id = match_of_group(group)
        if match_id is None:
            return
        try:
            follow_notice(match_id, message)
        except Exception:  # the cache is a shortcut: the sockets read the store instead
            logger.exception("live hub: following a notice of %s failed", group)


_HUBS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def hub_for(layer: Any) -> Hub:
    """This event loop's hub (made on first use)."""
    loop = asyncio.get_running_loop()
    hub = _HUBS.get(loop)
    if hub is None or hub.layer is not layer:
        hub = _HUBS[loop] = Hub(layer)
    return hub
