"""Who may import a physical table's record: the callable named by the setting
`CACHO_IMPORT_CHECK` (a dotted path), called with a user, answers. The tournaments app
names its check there (a club's scorekeepers, organisers and referees); `cacho` never
imports it. Without the setting, nobody may.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.utils.module_loading import import_string

Check = Callable[[Any], bool]
_check: Check | None = None


def _configured() -> Check:
    global _check
    if _check is None:
        path = getattr(settings, "CACHO_IMPORT_CHECK", "")
        _check = import_string(path) if path else (lambda user: False)
    return _check


def may_import(user: Any) -> bool:
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return bool(_configured()(user))


def _forget(**_: Any) -> None:
    global _check
    _check = None


setting_changed.connect(_forget, dispatch_uid="cacho.services.scorekeepers")
