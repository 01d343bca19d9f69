"""Engine states to JSON and back, for snapshots (no pickle: a snapshot is data, and only
the engine's own dataclasses can come back out of it).

A state is made of frozen dataclasses, tuples, frozensets, strings, numbers, booleans and
None. Encoded: a dataclass is `{"dc": "<module under cacho.engine>:<class>", "f": {...}}`,
a frozenset `{"fs": [...]}` (sorted when it can be), a tuple a JSON list; anything else
(a list, a dict, another class) is refused with `SnapshotError`, so a state that holds
something new is never half-saved. Decoding rebuilds every field exactly as it was,
`__init__` bypassed (a derived field is restored, not recomputed).
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
from typing import Any

PACKAGE = "cacho.engine"


class SnapshotError(ValueError):
    """The state cannot be encoded, or the data is not an encoded engine state."""


def encode_state(state: Any) -> Any:
    return _encode(state)


def decode_state(data: Any) -> Any:
    return _decode(data)


def _encode(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, tuple):
        return [_encode(item) for item in value]
    if isinstance(value, frozenset):
        items = [_encode(item) for item in value]
        with contextlib.suppress(TypeError):  # unorderable members: a set has no order anyway
            items.sort()
        return {"fs": items}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        cls = type(value)
        if not cls.__module__.startswith(PACKAGE + "."):
            raise SnapshotError(f"{cls.__module__}.{cls.__qualname__} is not an engine class")
        module = cls.__module__[len(PACKAGE) + 1 :]
        fields = {field.name: _encode(getattr(value, field.name)) for field in dataclasses.fields(value)}
        return {"dc": f"{module}:{cls.__qualname__}", "f": fields}
    raise SnapshotError(f"cannot snapshot a {type(value).__name__}")


def _decode(data: Any) -> Any:
    if data is None or isinstance(data, bool | int | float | str):
        return data
    if isinstance(data, list):
        return tuple(_decode(item) for item in data)
    if isinstance(data, dict):
        if set(data) == {"fs"} and isinstance(data["fs"], list):
            return frozenset(_decode(item) for item in data["fs"])
        if set(data) == {"dc", "f"} and isinstance(data["dc"], str) and isinstance(data["f"], dict):
            return _dataclass(data["dc"], data["f"])
    raise SnapshotError("not an encoded engine state")


def _dataclass(name: str, encoded: dict[str, Any]) -> Any:
    module_name, _, class_name = name.partition(":")
    if not module_name or not class_name or "." in class_name:
        raise SnapshotError(f"bad class name {name!r}")
    try:
        module = importlib.import_module(f"{PACKAGE}.{module_name}")
    except ImportError as exc:
        raise SnapshotError(f"no engine module {module_name!r}") from exc
    cls = getattr(module, class_name, None)
    if not isinstance(cls, type) or not dataclasses.is_dataclass(cls) or cls.__module__ != module.__name__:
        raise SnapshotError(f"{name!r} is not an engine dataclass")
    fields = dataclasses.fields(cls)
    if {field.name for field in fields} != set(encoded):
        raise SnapshotError(f"the fields of {name!r} changed")
    instance = object.__new__(cls)
    for field in fields:
        object.__setattr__(instance, field.name, _decode(encoded[field.name]))
    return instance
