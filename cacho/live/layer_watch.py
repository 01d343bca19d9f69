"""Notice a Redis behind the channel layer that restarted or came back after an outage.

A Redis restarted without persistence has lost every group membership (the lists layer's
sorted sets) and every subscription (the pub/sub layer's); notices published while it was
away are gone too. Neither layer tells its user. Each server process's hub asks the server
for its identity (`INFO server`'s `run_id`, new on every start) once a second; a new one, or
an answer after failed asks, means the hub must join its groups again and resync its sockets
(cacho.live.hub).
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings

logger = logging.getLogger(__name__)


def redis_address(layer: Any) -> str | None:
    """The address of the Redis behind the project's channel layer (None: not a Redis one)."""
    from channels.layers import InMemoryChannelLayer

    if isinstance(layer, InMemoryChannelLayer):
        return None
    hosts = settings.CHANNEL_LAYERS.get("default", {}).get("CONFIG", {}).get("hosts") or []
    if not hosts:
        return None
    host = hosts[0]
    address = host.get("address") if isinstance(host, dict) else host
    return address if isinstance(address, str) else None


class ServerWatch:
    """`lost()` is True once after the Redis at `address` restarted or came back."""

    def __init__(self, address: str) -> None:
        import redis.asyncio

        self._client = redis.asyncio.Redis.from_url(
            address, socket_timeout=2, socket_connect_timeout=2, retry_on_timeout=False
        )
        self._run_id: str | None = None
        self._failed = False

    async def lost(self) -> bool:
        try:
            run_id = str((await self._client.info("server"))["run_id"])
        except Exception:  # down, or not answering: the next answer tells
            if not self._failed:
                logger.warning("live hub: the channel layer's Redis does not answer")
            self._failed = True
            return False
        lost = self._failed or (self._run_id is not None and run_id != self._run_id)
        if lost:
            logger.warning(
                "live hub: the channel layer's Redis is back (restarted: %s)", run_id != self._run_id
            )
        self._run_id, self._failed = run_id, False
        return lost

    def again(self) -> None:
        """The hub could not act on a loss: report it again on the next answer."""
        self._failed = True

    async def close(self) -> None:
        await self._client.aclose()
