"""Commands: what a player (or the server, or a scorekeeper) asks the engine to do.

Dice are inputs: a server-rolled throw and a scorekeeper's entry are the same
command. Every command names the entry (person, pair or team) it acts for.
"""

from __future__ import annotations

from dataclasses import dataclass

from cacho.engine.undo import Undo


@dataclass(frozen=True)
class Throw:
    """Throw 1: all five dice."""

    entry: str
    dice: tuple[int, ...]


@dataclass(frozen=True)
class Reroll:
    """Throw 2: keep a multiset of the first throw's dice, re-roll the rest.

    The second throw's dice are `keep` followed by `dice`, in that order.
    """

    entry: str
    keep: tuple[int, ...]
    dice: tuple[int, ...]


@dataclass(frozen=True)
class TurnDie:
    """Turn the die at `position` (0-4) of the second throw to its opposite face."""

    entry: str
    position: int


@dataclass(frozen=True)
class Score:
    """Fill an open box with the points the final dice give (must be more than 0)."""

    entry: str
    box: str


@dataclass(frozen=True)
class Scratch:
    """Scratch an open box (X): only after throw 2 and only when no open box scores."""

    entry: str
    box: str


@dataclass(frozen=True)
class Abandon:
    """The entry leaves the match for good (any time, not only on its turn)."""

    entry: str


@dataclass(frozen=True)
class TimeOut:
    """The entry's turn timer ran out: the server finishes the turn (see `autoplay`).
    `at`: when the timer fired (None in a record's replay, which states a past timeout)."""

    entry: str
    at: int | None = None


Command = Throw | Reroll | TurnDie | Score | Scratch | Abandon | TimeOut | Undo
