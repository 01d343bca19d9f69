"""Who hears that a match has ended: the callables named by the setting
`CACHO_MATCH_FINISHED` (dotted paths), each called with the match id after the commit
that ended the match.

The tournaments app names its results step there, so a finished table reaches its
tournament at once, in every mode; `cacho` never imports the apps that listen. A listener
that fails is logged and skipped: the append has committed, and the listeners' own
safety nets (a periodic sweep) catch up.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.utils.module_loading import import_string

logger = logging.getLogger(__name__)

Listener = Callable[[Any], None]
_listeners: list[Listener] | None = None


def listeners() -> list[Listener]:
    """The configured listeners, imported once (again after a settings change)."""
    global _listeners
    if _listeners is None:
        _listeners = [import_string(path) for path in getattr(settings, "CACHO_MATCH_FINISHED", ())]
    return _listeners


def match_finished(match_id: Any) -> None:
    """Tell every listener that `match_id` has ended (called after commit)."""
    for listener in listeners():
        try:
            listener(match_id)
        except Exception:
            logger.exception("match-finished listener %r failed for match %s", listener, match_id)


def _forget(**_: Any) -> None:
    global _listeners
    _listeners = None


setting_changed.connect(_forget, dispatch_uid="cacho.services.finished")
