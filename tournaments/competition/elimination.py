"""Elimination: single and double elimination brackets (1-v-1) and elimination by tables.

Brackets are descriptions: every match names where its two sides come from (a seeded
entry, the winner or the loser of an earlier match, or a bye). `progress(bracket,
winners)` replays the reported winners through the bracket and says who plays whom,
which matches are ready, and who is champion. Byes go to the top seeds (standard bracket
positions: 1 v N, and seeds 1 and 2 can only meet in the final). A match both of whose
players forfeit (`DOUBLE_FORFEIT`, e.g. both withdrew) sends nobody on: the next opponent
on either path goes through on a bye. A single elimination bracket may have a match for
third place between the semi-final losers.

`bracket_tiers` ranks a bracket's entries by the round in which they went out: champion,
runner-up, then the losers of each earlier round sharing a place (or the third-place
match's winner and loser); in double elimination by the losers-bracket round.
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
THIRD_PLACE = "third_place"

ENTRY = "entry"
WINNER_OF = "winner"
LOSER_OF = "loser"
BYE = "bye"

WAITING = "waiting"
READY = "ready"
PLAYED = "played"
WALKOVER = "bye"
NOT_NEEDED = "not_needed"
FORFEITED = "forfeited"  # both players forfeited: nobody goes on

_BYE = ""  # resolved value of a bye side (entry ids are never empty)
DOUBLE_FORFEIT = ""  # reported as a match's winner: both players forfeited


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

    @property
    def out(self) -> tuple[str, ...]:
        """Who lost this match: its loser, or both players of a double forfeit."""
        if self.status == FORFEITED:
            return tuple(e for e in (self.home, self.away) if e)
        return (self.loser,) if self.loser else ()


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


def single_elimination(seeds: Sequence[str], third_place: bool = False) -> Bracket:
    """A single elimination bracket; `seeds` top seed first. Byes go to the top seeds.
    `third_place`: the semi-final losers play for third place (from four entries up)."""
    _check_seeds(seeds)
    matches, size, rounds = _winners_bracket(seeds)
    if third_place and rounds >= 2:
        semis = (Slot(LOSER_OF, f"W{rounds - 1}-1"), Slot(LOSER_OF, f"W{rounds - 1}-2"))
        matches.append(BracketMatch("3P", THIRD_PLACE, rounds, *semis))
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
            elif first in (home, _BYE):  # the first final settled it (or nobody won)
                status, won, settled = NOT_NEEDED, first, True
        if settled:
            pass
        elif home is None or away is None:
            status = WAITING
        elif winners.get(match.id) == DOUBLE_FORFEIT and (home or away):
            # Both sides forfeit (or the one entry of a walkover does: it withdrew).
            status, won, lost = FORFEITED, _BYE, _BYE
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
        if match.id in winners and status not in (PLAYED, FORFEITED):
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


def separate_groups(seeds: Sequence[str], group_of: Mapping[str, int]) -> tuple[str, ...]:
    """The seeds rearranged so that no first-round match of the bracket pairs two entries of
    the same group, where that can be done (A1 v B2, B1 v A2): the upper half of each
    first-round pairing (the better seeds) stays in place; an opponent from the same group
    swaps with the nearest lower seed whose swap leaves both pairings mixed."""
    order = list(seeds)
    size = _size_for(len(order))
    pairs = [(i, size - 1 - i) for i in range(size // 2) if size - 1 - i < len(order)]

    def group(position: int) -> int | None:
        return group_of.get(order[position])

    for top, low in pairs:
        if group(top) is None or group(top) != group(low):
            continue
        for other_top, other_low in sorted(pairs, key=lambda p: (abs(p[1] - low), -p[1])):
            if other_low == low:
                continue
            if group(other_low) != group(top) and group(low) != group(other_top):
                order[low], order[other_low] = order[other_low], order[low]
                break
    return tuple(order)


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


def bracket_tiers(bracket: Bracket, state: BracketProgress) -> list[list[str]]:
    """The bracket's entries by how far they went, best first, one list per shared place:
    the champion, the runner-up (the loser of the deciding final), then everyone else by
    the round they went out in, latest first (single elimination: winners-bracket rounds,
    the third-place match deciding 3rd and 4th when it is played; double elimination:
    losers-bracket rounds). Entries out by a double forfeit come right after the losers
    of that round. Entries still in (an unfinished bracket) come last, in seed order."""
    final = (
        state.match(bracket.reset) if bracket.reset and state.match(bracket.reset).status == PLAYED else None
    )
    final = final or state.match(bracket.final)
    tiers: list[list[str]] = []
    placed: set[str] = set()

    def add(tier: Sequence[str]) -> None:
        fresh = [e for e in tier if e and e not in placed]
        if fresh:
            tiers.append(fresh)
            placed.update(fresh)

    if state.champion:
        add([state.champion])
    add(list(final.out))
    third = next((m for m in state.matches if m.side == THIRD_PLACE), None)
    if third is not None and third.status == PLAYED:
        add([third.winner or ""])
        add([third.loser or ""])
    # The key of the round an entry went out in: larger is later. Winners-bracket double
    # forfeits of a double elimination rank with the losers-bracket round they would have
    # dropped into (winners round 1 → losers round 1, round r → losers round 2(r-1)).
    keyed: dict[tuple[int, int], list[str]] = {}
    for m in state.matches:
        if m.side in (GRAND_FINAL, RESET, THIRD_PLACE):
            continue
        if bracket.kind == DOUBLE and m.side == WINNERS:
            if m.status != FORFEITED:
                continue  # a winners-bracket loser drops to the losers bracket
            key = (1 if m.round == 1 else 2 * (m.round - 1), 0)
        else:
            key = (m.round, 0 if m.status == FORFEITED else 1)
        keyed.setdefault(key, []).extend(m.out)
    for key in sorted(keyed, reverse=True):
        add(keyed[key])
    for entry_id in bracket.seeds:  # still in: not ranked against each other yet
        add([entry_id])
    return tiers


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
