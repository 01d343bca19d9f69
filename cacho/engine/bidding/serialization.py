"""Events to and from plain JSON-able dicts, for the event store and the wire."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from cacho.engine.bidding.events import EVENT_TYPES, Event


def _plain(value: object) -> object:
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_frozen(item) for item in value)
    return value


def event_to_dict(event: Event) -> dict[str, Any]:
    payload: dict[str, Any] = {"type": event.TYPE}
    for field in fields(event):
        payload[field.name] = _plain(getattr(event, field.name))
    return payload


def event_from_dict(payload: dict[str, Any]) -> Event:
    cls = EVENT_TYPES[payload["type"]]
    names = {field.name for field in fields(cls)}
    unknown = set(payload) - names - {"type"}
    if unknown:
        raise ValueError(f"{payload['type']}: unknown fields {sorted(unknown)}")
    return cls(**{name: _frozen(value) for name, value in payload.items() if name != "type"})
