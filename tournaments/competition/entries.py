"""Entries: who plays in a tournament (an individual, a pair or a team), and withdrawals."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tournaments.competition.errors import CompetitionError

INDIVIDUAL = "individual"
PAIR = "pair"
TEAM = "team"


@dataclass(frozen=True)
class Entry:
    """One competitor. `members` lists the players of a pair or team (empty for an individual).

    `rating` (higher is stronger) and `seed` (1 is the top seed) are optional inputs to seeding.
    """

    id: str
    name: str = ""
    rating: float | None = None
    seed: int | None = None
    members: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return self.name or self.id

    @property
    def kind(self) -> str:
        if len(self.members) <= 1:
            return INDIVIDUAL
        return PAIR if len(self.members) == 2 else TEAM


@dataclass(frozen=True)
class Withdrawal:
    """`entry_id` plays no round after `after_round` (0: withdrawn before the first round)."""

    entry_id: str
    after_round: int = 0


def validate_entries(entries: Sequence[Entry]) -> tuple[Entry, ...]:
    """The entries, refusing empty or duplicate ids and duplicate seed numbers."""
    seen: set[str] = set()
    seeds: set[int] = set()
    for entry in entries:
        if not entry.id:
            raise CompetitionError("entry-id-missing", "every entry has an id")
        if entry.id in seen:
            raise CompetitionError("entry-duplicate", f"entry {entry.id!r} is listed twice")
        seen.add(entry.id)
        if entry.seed is not None:
            if entry.seed < 1 or entry.seed in seeds:
                raise CompetitionError("seed-invalid", f"seed {entry.seed} is not a new positive number")
            seeds.add(entry.seed)
    return tuple(entries)


def withdrawn_ids(withdrawals: Iterable[Withdrawal], round_number: int) -> frozenset[str]:
    """Entries that do not play round `round_number` (rounds count from 1)."""
    return frozenset(w.entry_id for w in withdrawals if w.after_round < round_number)


def active_entries(
    entries: Sequence[Entry], withdrawals: Iterable[Withdrawal], round_number: int
) -> tuple[Entry, ...]:
    """The entries that play round `round_number`, in their given order."""
    gone = withdrawn_ids(withdrawals, round_number)
    return tuple(e for e in entries if e.id not in gone)


def by_id(entries: Iterable[Entry]) -> dict[str, Entry]:
    return {e.id: e for e in entries}
