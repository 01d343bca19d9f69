"""Events to and from plain JSON-able dicts, for the event store and the wire."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from cacho.engine.bidding.events import EVENT_TYPES, Event, MatchStarted
from cacho.engine.json_shapes import frozen, plain

_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _names(cls: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:  # once per event type: `fields` walks the class on every call
        names = _FIELD_NAMES[cls] = tuple(field.name for field in fields(cls))
    return names


def event_to_dict(event: Event) -> dict[str, Any]:
    payload: dict[str, Any] = {"type": event.TYPE}
    for name in _names(type(event)):
        value = getattr(event, name)
        payload[name] = plain(value) if isinstance(value, tuple) else value
    if type(event) is MatchStarted and not event.physical:
        del payload["physical"]  # an online match's start is stored as it always was
    return payload


def event_from_dict(payload: dict[str, Any]) -> Event:
    cls = EVENT_TYPES[payload["type"]]
    names = {field.name for field in fields(cls)}
    unknown = set(payload) - names - {"type"}
    if unknown:
        raise ValueError(f"{payload['type']}: unknown fields {sorted(unknown)}")
    return cls(**{name: frozen(value) for name, value in payload.items() if name != "type"})
