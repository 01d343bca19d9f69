"""`quick_init`: the same construction as the dataclass's own `__init__`, still frozen."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from cacho.engine.bidding.bids import Bid
from cacho.engine.bidding.state import RoundState, TableState
from cacho.engine.frozen import quick_init


@dataclasses.dataclass(frozen=True, slots=True)
class _Plain:
    a: int
    b: tuple[int, ...] = ()
    c: str | None = None


@quick_init
@dataclasses.dataclass(frozen=True, slots=True)
class _Quick:
    a: int
    b: tuple[int, ...] = ()
    c: str | None = None


def test_same_fields_defaults_and_keywords_as_the_generated_init() -> None:
    for args, kwargs in [
        ((1,), {}),
        ((1, (2,)), {}),
        ((1,), {"c": "x"}),
        ((), {"a": 3, "b": (4,), "c": "y"}),
    ]:
        quick, plain = _Quick(*args, **kwargs), _Plain(*args, **kwargs)
        assert dataclasses.astuple(quick) == dataclasses.astuple(plain)  # type: ignore[call-overload]
    assert list(inspect.signature(_Quick).parameters) == ["a", "b", "c"]
    with pytest.raises(TypeError):
        _Quick()
    with pytest.raises(TypeError):
        _Quick(1, 2, 3, 4)


def test_the_state_classes_stay_frozen_and_equal() -> None:
    assert Bid(3, 4) == Bid(quantity=3, face=4) and hash(Bid(3, 4)) == hash(Bid(3, 4))
    table = TableState((5, 5), False, 0, "normal", "cw", (0, 0))
    assert table.round_starts == () and table.time is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        table.winner = 1  # type: ignore[misc]
    current = RoundState(1, "normal", 0, "cw", ((1,), (2,)), 1, (0, 0))
    assert current.actions == () and current.deadline is None


def test_refuses_what_it_does_not_build() -> None:
    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class WithFactory:
        a: list[int] = dataclasses.field(default_factory=list)

    for cls in (NoSlots, WithFactory):
        with pytest.raises(TypeError):
            quick_init(cls)
