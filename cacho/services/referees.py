"""Who referees a match: the callable named by the setting `CACHO_REFEREE_CHECK` (a dotted
path), called with the match id and a user, answers. A referee sees every die of the
match (the omniscient view) and its record while it is live.

The tournaments app names its check there (the referees of the club whose table plays
the match); `cacho` never imports it. Site staff status alone makes nobody a referee.
Without the setting, nobody is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.utils.module_loading import import_string

Check = Callable[[Any, Any], bool]
_check: Check | None = None


def _configured() -> Check:
    global _check
    if _check is None:
        path = getattr(settings, "CACHO_REFEREE_CHECK", "")
        _check = import_string(path) if path else (lambda match_id, user: False)
    return _check


def referees(match_id: Any, user: Any) -> bool:
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return bool(_configured()(match_id, user))


def _forget(**_: Any) -> None:
    global _check
    _check = None


setting_changed.connect(_forget, dispatch_uid="cacho.services.referees")
