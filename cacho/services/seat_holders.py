"""Who plays a seat without an account: the callable named by the setting
`CACHO_SEAT_HOLDER_CHECK` (a dotted path), called with the match id and the browser's
session, answers the name of the seat that session holds in that match, or None.

The tournaments app names its check there (a walk-in's claimed seat link binds the
browser's session to that one seat); `cacho` never imports it. Without the setting, a
session holds no seat: only an account does (`Seat.user`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.utils.module_loading import import_string

Check = Callable[[Any, Any], "str | None"]
_check: Check | None = None


def _configured() -> Check:
    global _check
    if _check is None:
        path = getattr(settings, "CACHO_SEAT_HOLDER_CHECK", "")
        _check = import_string(path) if path else (lambda match_id, session: None)
    return _check


def session_seat(match_id: Any, session: Any) -> str | None:
    """The seat name the session holds in the match (None: no session, or none held)."""
    if session is None:
        return None
    name = _configured()(match_id, session)
    return str(name) if name else None


def _forget(**_: Any) -> None:
    global _check
    _check = None


setting_changed.connect(_forget, dispatch_uid="cacho.services.seat_holders")
