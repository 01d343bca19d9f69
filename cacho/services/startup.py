"""What a serving process loads at its start instead of on its first move.

The write path itself is loaded with the apps (`CachoConfig.ready` registers its timers);
the channel layer's backend (channels-redis and asyncio redis-py: bench/notice.py measures it) is
made by the first notice, which a player's move would wait for. Loaded before
`gc.freeze()`, it also stays out of the collector's scans.
"""

from __future__ import annotations

from channels.layers import get_channel_layer


def load_write_path() -> None:
    get_channel_layer()  # the configured backend and its instance (no connection yet)
