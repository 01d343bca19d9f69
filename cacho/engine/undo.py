"""Undoing the last entry at a physical table (docs/engine.md, "Physical tables").

A scorekeeper's last entry can be undone, once, until the next one: `Undo` is decided by
each game's `decide` (`nothing-to-undo` when there is no entry to undo, `undo-not-physical`
in an online match) and leaves `EntryUndone`, whose `evolve` gives back the state as it
was before that entry. Each game's state keeps that state (`undo`, one level deep: the
state it holds has none).

`without_undone(events)` drops every undone entry and its undoing from a log, which is
how a record and a match's results read it: an undone entry never happened.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar


@dataclass(frozen=True, slots=True)
class Undo:
    """Undo the last entry (the scorekeeper's)."""

    at: int | None = None


@dataclass(frozen=True, slots=True)
class EntryUndone:
    """The last entry (its events) is undone: the match is as it was before it."""

    TYPE: ClassVar[str] = "entry_undone"


def without_undone(events: Iterable[Any], follows: Callable[[Any], bool] = lambda event: False) -> list[Any]:
    """The log without its undone entries: each `EntryUndone` removes itself and the entry
    before it, that is its first event and the events `follows` says came with it (an
    Alalay match's end after the throw or the box that ended it)."""
    kept: list[Any] = []
    for event in events:
        if not isinstance(event, EntryUndone):
            kept.append(event)
            continue
        while kept and follows(kept[-1]):
            kept.pop()
        if len(kept) > 1:  # the match's first event is never an entry
            kept.pop()
    return kept
