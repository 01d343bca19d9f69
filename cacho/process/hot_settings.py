"""The settings the write path reads on every command, looked up once.

`django.conf.settings.X` goes through `LazyObject.__getattribute__`, a Python-level
lookup, on every access; a move read three such flags. They are kept here, and forgotten
whenever a setting changes (`override_settings` in tests sends `setting_changed`).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.signals import setting_changed

_VALUES: dict[str, Any] = {}


def setting(name: str, default: Any) -> Any:
    """`getattr(settings, name, default)`, remembered until a setting changes."""
    try:
        return _VALUES[name]
    except KeyError:
        value = _VALUES[name] = getattr(settings, name, default)
        return value


def _forget(**_: Any) -> None:
    _VALUES.clear()


setting_changed.connect(_forget, dispatch_uid="cacho.process.hot_settings")
