"""Events are frozen dataclasses holding tuples; their JSON form holds lists. The two
conversions, applied all the way down."""

from __future__ import annotations

from typing import Any


def plain(value: Any) -> Any:
    """Tuples as lists (an event's field as JSON)."""
    if isinstance(value, tuple):
        return [plain(item) for item in value]
    return value


def frozen(value: Any) -> Any:
    """Lists as tuples (a JSON field as an event's)."""
    if isinstance(value, list):
        return tuple(frozen(item) for item in value)
    return value
