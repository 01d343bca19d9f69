"""`quick_init`: a faster `__init__` for the engine's hottest frozen dataclasses.

A frozen dataclass's generated `__init__` sets each field through
`object.__setattr__`, which looks the field's slot up by name on every call; in
Python 3.11 that is most of the cost of building a `TableState` (16 fields) and most
of a replay's time. The `__init__` written here has the same parameters, defaults and
effect, and calls each slot's own setter directly. The class stays frozen: assigning a
field afterwards still raises `FrozenInstanceError`.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")


def quick_init(cls: type[T]) -> type[T]:
    """Give the frozen, slotted dataclass `cls` the faster `__init__` (put it above `@dataclass`)."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__} is not a frozen dataclass with slots")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__")
    namespace: dict[str, Any] = {}
    parameters: list[str] = []
    lines: list[str] = []
    for field in dataclasses.fields(cls):  # type: ignore[arg-type]
        if not field.init or field.kw_only or field.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{field.name}: only plain positional fields")
        if field.default is dataclasses.MISSING:
            parameters.append(field.name)
        else:
            namespace[f"_default_{field.name}"] = field.default
            parameters.append(f"{field.name}=_default_{field.name}")
        namespace[f"_set_{field.name}"] = cls.__dict__[field.name].__set__
        lines.append(f"    _set_{field.name}(self, {field.name})")
    source = (
        f"def __init__(self, {', '.join(parameters)}) -> None:\n" + "\n".join(lines or ["    pass"]) + "\n"
    )
    exec(source, namespace)  # as `dataclasses` itself builds `__init__`
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__annotations__ = dict(cls.__init__.__annotations__)
    cls.__init__ = init  # type: ignore[method-assign]
    return cls
