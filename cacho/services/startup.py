"""What a serving process loads at its start instead of on its first move.

The write path itself is loaded with the apps (`CachoConfig.ready` registers its timers);
the channel layer's backend (channels-redis and asyncio redis-py: bench/notice.py measures it) is
made by the first notice, which a player's move would wait for; the listeners of a match's
end (`CACHO_MATCH_FINISHED`: the tournaments' results step and the modules it imports) by
the first table to finish, whose last move would wait for them (about a tenth of
bench/append.py's run when they did). Loaded before `gc.freeze()`, they also stay out of
the collector's scans.
"""

from __future__ import annotations

from channels.layers import get_channel_layer

from cacho.services import finished


def load_write_path() -> None:
    get_channel_layer()  # the configured backend and its instance (no connection yet)
    finished.listeners()
