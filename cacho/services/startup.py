"""What a serving process loads at its start instead of on its first move.

The write path's after-commit work reaches modules nothing imports before: the channel
layer's backend is made by the first notice (channels-redis and asyncio redis-py, ~45 ms
of CPU here), which a player's move would wait for. Loaded before `gc.freeze()`, they
also stay out of the collector's scans.
"""

from __future__ import annotations


def load_write_path() -> None:
    from channels.layers import get_channel_layer

    import cacho.services.matches  # noqa: F401  # the service, its engine and store

    get_channel_layer()  # the configured backend and its instance (no connection yet)
