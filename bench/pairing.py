"""Competition-core benchmark: Swiss pairings (repeats against the lower bound, timings) and standings.

Run `python bench/pairing.py` (`--quick`: the small fields only). Two parts:

1. Swiss repeats. For each field size and table size, a simulated Swiss stage (placements
   from `random.Random(seed)` here, never inside the core): every round is paired by the
   current code, and the same request (same scores, same history) by the pairing of
   commit d4f079c (`BASELINE`, its `tournaments/competition/swiss.py` read from git). Per
   round: the new repeats, the lower bound the new code reports, the old repeats. Then the pairing of the last
   round of each field of 1,000 is timed, new and old (target: under 1 s).
2. A Swiss stage of 1,000 entries at tables of 6 with real standings: the pairing of
   round 8 and the full rebuild of the standings from every table result are timed.
   Targets: under 1 s each.
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
import types
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.timing import best_of
from tournaments.competition.entries import Entry
from tournaments.competition.standings import (
    BIDDING_STANDINGS,
    EntryResult,
    MatchResult,
    Standings,
    compute_standings,
)
from tournaments.competition.swiss import SwissPlayer, SwissRequest, SwissRound, pair_swiss_round
from tournaments.competition.tables import count_openers

# The baseline: the Swiss pairing as it was at this commit (exhaustive up to 10 seated
# entries, a swap heuristic above), loaded from git so that the bench measures the old
# repeats on the very inputs the current code pairs.
BASELINE = "d4f079c"


def load_baseline(revision: str = BASELINE) -> types.ModuleType:
    source = subprocess.run(
        ["git", "show", f"{revision}:tournaments/competition/swiss.py"],
        cwd=Path(__file__).resolve().parents[1],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    module = types.ModuleType(f"swiss_at_{revision}")
    sys.modules[module.__name__] = module  # dataclasses look their module up by name
    exec(compile(source, f"{revision}:tournaments/competition/swiss.py", "exec"), module.__dict__)
    return module


swiss_before = load_baseline()

ENTRIES = 1000
TABLE = 6
ROUNDS = 8
TARGET = 1.0

STUDY_SIZES = (8, 11, 12, 13, 20, 50, 200, 1000)
QUICK_SIZES = (8, 11, 12, 13, 20)
STUDY_TABLES = (2, 4, 5, 6)  # largest table; smaller ones seat 2 and up, the preferred is the largest
STUDY_ROUNDS = 7
STUDY_SEED = 16


def play_table(
    rng: random.Random, match_id: str, round_number: int, table: int, seats: tuple[str, ...]
) -> MatchResult:
    finish = list(seats)
    rng.shuffle(finish)
    winner_dice = rng.randint(1, 5)
    results = tuple(
        EntryResult(
            e,
            placement=place,
            dice_left=winner_dice if place == 1 else 0,
            eliminations=rng.randint(0, 2),
        )
        for place, e in enumerate(finish, start=1)
    )
    return MatchResult(match_id, round_number, table, results)


@dataclass
class Study:
    """One simulated stage: per round the new repeats, its lower bound, the old repeats."""

    size: int
    table: int
    new: list[int] = field(default_factory=list)
    bound: list[int] = field(default_factory=list)
    old: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    late_new: float = 0.0
    late_old: float = 0.0


def study(size: int, table: int, rounds: int, seed: int) -> Study:
    """Play `rounds` Swiss rounds paired by the new code; pair each request by the old too.

    A table's finishing order is a shuffle; its k seats score k-1, k-2, ..., 0 points and
    a bye scores 1. The ranking is by points, then by id."""
    rng = random.Random(seed)
    ids = [f"e{i:04d}" for i in range(size)]
    points = dict.fromkeys(ids, 0.0)
    byes = dict.fromkeys(ids, 0)
    opened: dict[str, int] = {}
    history: list[tuple[str, ...]] = []
    out = Study(size, table)
    for _ in range(rounds):
        ranked = sorted(ids, key=lambda e: (-points[e], e))
        players = tuple(SwissPlayer(e, points[e], byes[e], opened.get(e, 0)) for e in ranked)
        request = SwissRequest(players, tuple(history), 2, table, preferred_size=table)
        old_request = swiss_before.SwissRequest(
            tuple(swiss_before.SwissPlayer(p.id, p.score, p.byes, p.opened) for p in players),
            tuple(history),
            2,
            table,
            preferred_size=table,
        )
        start = time.perf_counter()
        pairing = pair_swiss_round(request)
        out.seconds.append(time.perf_counter() - start)
        out.new.append(pairing.repeat_meetings)
        out.bound.append(pairing.lower_bound)
        out.old.append(swiss_before.pair_swiss_round(old_request).repeat_meetings)
        opened = count_openers(pairing.tables, opened)
        for t in pairing.tables:
            history.append(t.seats)
            finish = list(t.seats)
            rng.shuffle(finish)
            for place, e in enumerate(finish):
                points[e] += len(finish) - 1 - place
        for e in pairing.byes:
            byes[e] += 1
            points[e] += 1
    if size >= ENTRIES:
        out.late_new = best_of(3, lambda: pair_swiss_round(request))
        out.late_old = best_of(3, lambda: swiss_before.pair_swiss_round(old_request))
    return out


def swiss_study(sizes: tuple[int, ...]) -> bool:
    print(f"Swiss repeats per round, rounds 1-{STUDY_ROUNDS}: new (lower bound) / old code on the same input")
    met = True
    total_new = total_bound = total_old = 0
    for size in sizes:
        for table in STUDY_TABLES:
            s = study(size, table, STUDY_ROUNDS, STUDY_SEED + size * 10 + table)
            total_new += sum(s.new)
            total_bound += sum(s.bound)
            total_old += sum(s.old)
            rounds = "  ".join(f"{n}({b})/{o}" for n, b, o in zip(s.new, s.bound, s.old, strict=True))
            label = "1-v-1" if table == 2 else f"tables ≤ {table}"
            slowest = max(s.seconds) * 1000
            print(f"  {size:5d} {label:12s} {rounds}   slowest round {slowest:7.1f} ms")
            if s.late_new:
                ok = s.late_new < TARGET
                met = met and ok
                print(
                    f"        round {STUDY_ROUNDS} timed: new {s.late_new * 1000:7.1f} ms,"
                    f" old {s.late_old * 1000:7.1f} ms (target < {TARGET:.0f} s: {'met' if ok else 'MISSED'})"
                )
    print(f"  all rounds: new {total_new} repeats (lower bounds {total_bound}), old {total_old}")
    return met


def main() -> None:
    quick = "--quick" in sys.argv[1:]
    study_met = swiss_study(QUICK_SIZES if quick else STUDY_SIZES)
    if quick:
        return
    rng = random.Random(2024)
    entries = [Entry(f"e{i:04d}", f"Player {i}") for i in range(ENTRIES)]
    ids = [e.id for e in entries]
    results: list[MatchResult] = []
    history: list[tuple[str, ...]] = []
    opened: dict[str, int] = {}
    standings: Standings = compute_standings(results, BIDDING_STANDINGS, entries)
    last_request: SwissRequest | None = None
    last_round: SwissRound | None = None
    repeats: list[int] = []
    for r in range(1, ROUNDS + 1):
        points = {row.entry_id: row.points for row in standings.rows}
        players = tuple(SwissPlayer(e, points.get(e, 0.0), 0, opened.get(e, 0)) for e in standings.ranking())
        request = SwissRequest(players, tuple(history), 2, TABLE)
        pairing = pair_swiss_round(request)
        last_request, last_round = request, pairing
        repeats.append(pairing.repeat_meetings)
        opened = count_openers(pairing.tables, opened)
        for t in pairing.tables:
            history.append(t.seats)
            results.append(play_table(rng, f"r{r}t{t.number}", r, t.number, t.seats))
        standings = compute_standings(results, BIDDING_STANDINGS, entries)
    assert last_request is not None and last_round is not None
    assert sorted(e for t in last_round.tables for e in t.seats) == sorted(ids)

    pairing_time = best_of(5, lambda: pair_swiss_round(last_request))
    standings_time = best_of(5, lambda: compute_standings(results, BIDDING_STANDINGS, entries))
    resolved = sum(1 for row in standings.rows if row.tiebreak_reason)
    shared = len(standings.rows) - len({row.rank for row in standings.rows})

    print(
        f"Swiss, {ENTRIES} entries at tables of {TABLE}, {ROUNDS} rounds (history of {len(history)} tables)"
    )
    print(f"  pairing of round {ROUNDS}: {pairing_time * 1000:8.1f} ms  ({len(last_round.tables)} tables)")
    print(f"  repeat meetings per round: {repeats}")
    print(f"Standings rebuild from {len(results)} table results ({len(standings.criteria)} criteria:")
    print(f"  {', '.join(standings.criteria)})")
    print(f"  rebuild: {standings_time * 1000:8.1f} ms  ({resolved} ties resolved with a reason,")
    print(f"  {shared} rows sharing a rank)")
    ok = pairing_time < TARGET and standings_time < TARGET and study_met
    print(f"target < {TARGET:.0f} s each: {'met' if ok else 'MISSED'}")


if __name__ == "__main__":
    main()
