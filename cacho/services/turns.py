"""Who hears that a match's turn passed to a player: the callables named by the setting
`CACHO_TURN_STARTED` (dotted paths), each called with (match id, version, player) after the
commit that put `player` on turn at `version`.

The tournaments app names its "your turn" notice there (sent only while that player's tab
is hidden); `cacho` never imports the apps that listen. With PostgreSQL the call waits
`HOLD` seconds on the dispatch thread and a newer version of the match replaces it, so a
turn played at once costs nothing; embedded (SQLite, one writer) it runs at once on the
committing thread. A listener that fails is logged and skipped: the move has committed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.utils.module_loading import import_string

logger = logging.getLogger(__name__)

HOLD = 1.0  # seconds a turn lasts before its listeners hear of it (PostgreSQL)

Listener = Callable[[Any, int, str], None]
_listeners: list[Listener] | None = None


def listeners() -> list[Listener]:
    """The configured listeners, imported once (again after a settings change)."""
    global _listeners
    if _listeners is None:
        _listeners = [import_string(path) for path in getattr(settings, "CACHO_TURN_STARTED", ())]
    return _listeners


def turn_started(match_id: Any, version: int, player: str) -> None:
    """Tell every listener that `player` is on turn in `match_id` at `version`."""
    for listener in listeners():
        try:
            listener(match_id, version, player)
        except Exception:
            logger.exception("turn listener %r failed for match %s", listener, match_id)


def _forget(**_: Any) -> None:
    global _listeners
    _listeners = None


setting_changed.connect(_forget, dispatch_uid="cacho.services.turns")
