"""Elimination: single and double elimination brackets (1-v-1) and elimination by tables.

Brackets are descriptions: every match names where its two sides come from (a seeded
entry, the winner or the loser of an earlier match, or a bye). `progress(bracket,
winners)` replays the reported winners through the bracket and says who plays whom,
which matches are ready, and who is champion. Byes go to the top seeds (standard bracket
positions: 1 v N, and seeds 1 and 2 can only meet in the final).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournaments.competition.errors import CompetitionError
from tournaments.competition.tables import LARGEST_TABLE, Balance, Table, balance_tables

SINGLE = "single"
DOUBLE = "double"

WINNERS = "winners"
LOSERS = "losers"
GRAND_FINAL = "grand_final"
RESET = "reset"

ENTRY = "entry"
WINNER_OF = "winner"
LOSER_OF = "loser"
BYE = "bye"

WAITING = "waiting"
READY = "ready"
PLAYED = "played"
WALKOVER = "bye"
NOT_NEEDED = "not_needed"

_BYE = ""  # resolved value of a bye side (entry ids are never empty)


@dataclass(frozen=True)
class Slot:
    """Where one side of a match comes from: an entry, the winner/loser of a match, or a bye."""

    kind: str
    ref: str = ""


@dataclass(frozen=True)
class BracketMatch:
    id: str
    side: str
    round: int
    home: Slot
    away: Slot


@dataclass(frozen=True)
class Bracket:
    kind: str
    seeds: tuple[str, ...]
    size: int
    matches: tuple[BracketMatch, ...]
    final: str
    reset: str | None = None


@dataclass(frozen=True)
class MatchState:
    """A match after replaying the results. `home`/`away` are None while unknown or a bye."""

    id: str
    side: str
    round: int
    home: str | None
    away: str | None
    status: str
    winner: str | None
    loser: str | None


@dataclass(frozen=True)
class BracketProgress:
    matches: tuple[MatchState, ...]
    champion: str | None

    @property
    def ready(self) -> tuple[MatchState, ...]:
        return tuple(m for m in self.matches if m.status == READY)

    def match(self, match_id: str) -> MatchState:
        for m in self.matches:
            if m.id == match_id:
                return m
        raise CompetitionError("match-unknown", f"no match {match_id!r} in this bracket")


def bracket_order(size: int) -> tuple[int, ...]:
    """Seed numbers by bracket position for a power-of-two size: 8 → 1 8 4 5 2 7 3 6."""
    if size < 2 or size & (size - 1):
        raise CompetitionError("bracket-size", "a bracket size is a power of two, at least 2")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for seed in order for x in (seed, total - seed)]
    return tuple(order)


def _size_for(n: int) -> int:
    size = 2
    while size < n:
        size *= 2
    return size


def _check_seeds(seeds: Sequence[str]) -> None:
    if len(seeds) < 2:
        raise CompetitionError("bracket-too-small", "a bracket needs two entries")
    if len(set(seeds)) != len(seeds) or any(not s for s in seeds):
        raise CompetitionError("entry-duplicate", "every seed is a distinct, non-empty id")


def _winners_bracket(seeds: Sequence[str]) -> tuple[list[BracketMatch], int, int]:
    size = _size_for(len(seeds))
    order = bracket_order(size)
    matches: list[BracketMatch] = []

    def seat(seed: int) -> Slot:
        return Slot(ENTRY, seeds[seed - 1]) if seed <= len(seeds) else Slot(BYE)

    for i in range(size // 2):
        matches.append(BracketMatch(f"W1-{i + 1}", WINNERS, 1, seat(order[2 * i]), seat(order[2 * i + 1])))
    rounds = size.bit_length() - 1
    for r in range(2, rounds + 1):
        for i in range(size >> r):
            home = Slot(WINNER_OF, f"W{r - 1}-{2 * i + 1}")
            away = Slot(WINNER_OF, f"W{r - 1}-{2 * i + 2}")
            matches.append(BracketMatch(f"W{r}-{i + 1}", WINNERS, r, home, away))
    return matches, size, rounds


def single_elimination(seeds: Sequence[str]) -> Bracket:
    """A single elimination bracket; `seeds` top seed first. Byes go to the top seeds."""
    _check_seeds(seeds)
    matches, size, rounds = _winners_bracket(seeds)
    return Bracket(SINGLE, tuple(seeds), size, tuple(matches), final=f"W{rounds}-1")


def double_elimination(seeds: Sequence[str], grand_final_reset: bool = True) -> Bracket:
    """A double elimination bracket: winners bracket, losers bracket, grand final (and a reset
    match, played only when the losers-bracket champion wins the first grand final).

    The losers bracket alternates drop-in rounds (its survivors against the losers of a
    winners round, in reversed order every other round to put off rematches) and
    consolidation rounds among its own survivors.
    """
    _check_seeds(seeds)
    matches, size, rounds = _winners_bracket(seeds)
    if rounds == 1:
        lb_champion = Slot(LOSER_OF, "W1-1")
    else:
        previous: list[str] = []
        for j in range(size // 4):
            mid = f"L1-{j + 1}"
            home, away = Slot(LOSER_OF, f"W1-{2 * j + 1}"), Slot(LOSER_OF, f"W1-{2 * j + 2}")
            matches.append(BracketMatch(mid, LOSERS, 1, home, away))
            previous.append(mid)
        lb_round = 1
        for r in range(2, rounds + 1):
            lb_round += 1
            count = len(previous)
            dropped: list[str] = []
            for j in range(count):
                k = count - j if r % 2 == 0 else j + 1
                mid = f"L{lb_round}-{j + 1}"
                home, away = Slot(WINNER_OF, previous[j]), Slot(LOSER_OF, f"W{r}-{k}")
                matches.append(BracketMatch(mid, LOSERS, lb_round, home, away))
                dropped.append(mid)
            previous = dropped
            if r < rounds:
                lb_round += 1
                merged: list[str] = []
                for j in range(len(previous) // 2):
                    mid = f"L{lb_round}-{j + 1}"
                    home, away = Slot(WINNER_OF, previous[2 * j]), Slot(WINNER_OF, previous[2 * j + 1])
                    matches.append(BracketMatch(mid, LOSERS, lb_round, home, away))
                    merged.append(mid)
                previous = merged
        lb_champion = Slot(WINNER_OF, previous[0])
    wb_champion = Slot(WINNER_OF, f"W{rounds}-1")
    matches.append(BracketMatch("GF", GRAND_FINAL, 1, wb_champion, lb_champion))
    reset = None
    if grand_final_reset:
        matches.append(BracketMatch("GF2", RESET, 2, wb_champion, lb_champion))
        reset = "GF2"
    return Bracket(DOUBLE, tuple(seeds), size, tuple(matches), final="GF", reset=reset)


def progress(bracket: Bracket, winners: Mapping[str, str]) -> BracketProgress:
    """Replay reported winners (match id → winning entry id) through the bracket."""
    known = {m.id for m in bracket.matches}
    unknown = set(winners) - known
    if unknown:
        raise CompetitionError("match-unknown", f"no match {sorted(unknown)[0]!r} in this bracket")
    outcome: dict[str, tuple[str | None, str | None]] = {}
    states: list[MatchState] = []

    def resolve(slot: Slot) -> str | None:
        if slot.kind == ENTRY:
            return slot.ref
        if slot.kind == BYE:
            return _BYE
        won, lost = outcome[slot.ref]
        return won if slot.kind == WINNER_OF else lost

    for match in bracket.matches:
        home, away = resolve(match.home), resolve(match.away)
        status, won, lost = WAITING, None, None
        settled = False
        if match.side == RESET:
            first = outcome[bracket.final][0]
            if first is None:
                settled = True
            elif first == home:
                status, won, settled = NOT_NEEDED, first, True
        if settled:
            pass
        elif home is None or away is None:
            status = WAITING
        elif _BYE in (home, away):
            status = WALKOVER
            won = away if home == _BYE else home
            lost = _BYE
        elif match.id in winners:
            won = winners[match.id]
            if won not in (home, away):
                raise CompetitionError("winner-not-playing", f"{won!r} does not play match {match.id}")
            lost = away if won == home else home
            status = PLAYED
        else:
            status = READY
        if match.id in winners and status != PLAYED:
            raise CompetitionError("match-not-ready", f"match {match.id} cannot have a result yet")
        outcome[match.id] = (won, lost)
        states.append(
            MatchState(
                id=match.id,
                side=match.side,
                round=match.round,
                home=home or None,
                away=away or None,
                status=status,
                winner=won or None,
                loser=lost or None,
            )
        )
    final = outcome[bracket.reset][0] if bracket.reset else outcome[bracket.final][0]
    return BracketProgress(tuple(states), final or None)


def first_round_byes(bracket: Bracket) -> tuple[str, ...]:
    """The entries that skip the first round."""
    out: list[str] = []
    for m in bracket.matches:
        if m.side == WINNERS and m.round == 1:
            if m.away.kind == BYE and m.home.kind == ENTRY:
                out.append(m.home.ref)
            elif m.home.kind == BYE and m.away.kind == ENTRY:
                out.append(m.away.ref)
    return tuple(out)


def walkovers(progress: BracketProgress) -> tuple[MatchState, ...]:
    """The matches decided by a bye so far (an entry against nobody), in bracket order: the
    entry (`winner`) goes on without playing. A match between two byes is not listed."""
    return tuple(m for m in progress.matches if m.status == WALKOVER and m.winner is not None)


# ---------------------------------------------------------------- elimination by tables


@dataclass(frozen=True)
class TableOutcome:
    """How a table finished: `placements` from first to last."""

    table: int
    placements: tuple[str, ...]


@dataclass(frozen=True)
class TableEliminationRound:
    """Who goes on (all firsts by table, then all seconds, …), who is out, and the next tables
    (rebalanced; one final table at the end). `champion` once the final table has played."""

    advancing: tuple[str, ...]
    eliminated: tuple[str, ...]
    balance: Balance | None
    champion: str | None

    @property
    def next_tables(self) -> tuple[Table, ...]:
        return self.balance.tables if self.balance else ()


def eliminate_by_tables(
    tables: Sequence[Table],
    outcomes: Sequence[TableOutcome],
    advance_per_table: int,
    max_size: int = LARGEST_TABLE,
) -> TableEliminationRound:
    """The top `advance_per_table` of each table go on (a table always loses at least its last
    place), the others are out; survivors keep their seats and the tables are rebalanced by
    `tables.balance_tables` (moves from the largest to the smallest, tables broken when fewer
    suffice). The winner of a lone (final) table is the champion."""
    if advance_per_table < 1:
        raise CompetitionError("advance-count", "at least one entry per table advances")
    by_table = {o.table: o for o in outcomes}
    if sorted(by_table) != sorted(t.number for t in tables) or len(outcomes) != len(tables):
        raise CompetitionError("outcomes-mismatch", "one outcome for every table")
    if len(tables) == 1:
        placements = by_table[tables[0].number].placements
        if sorted(placements) != sorted(tables[0].seats):
            raise CompetitionError("placements-mismatch", f"table {tables[0].number} ranks its own seats")
        return TableEliminationRound(placements[:1], placements[1:], None, placements[0])
    kept: list[Table] = []
    tiers: list[list[str]] = []
    eliminated: list[str] = []
    for table in tables:
        placements = by_table[table.number].placements
        if sorted(placements) != sorted(table.seats):
            raise CompetitionError("placements-mismatch", f"table {table.number} ranks its own seats")
        goes_on = placements[: max(1, min(advance_per_table, len(placements) - 1))]
        eliminated.extend(placements[len(goes_on) :])
        for place, entry_id in enumerate(goes_on):
            if len(tiers) <= place:
                tiers.append([])
            tiers[place].append(entry_id)
        keep = set(goes_on)
        kept.append(Table(table.number, tuple(s for s in table.seats if s in keep)))
    advancing = tuple(e for tier in tiers for e in tier)
    return TableEliminationRound(advancing, tuple(eliminated), balance_tables(kept, max_size), None)
