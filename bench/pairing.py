"""Competition-core benchmark: a Swiss round of 1,000 entries at tables of 6, and standings.

Run `python bench/pairing.py`. Simulates a Swiss stage (placements and dice from
`random.Random(seed)` here, never inside the core), times the pairing of the last round
(scores and history of the earlier rounds exist by then) and the full rebuild of the
standings from every table result. Targets: under 1 s each.
"""

from __future__ import annotations

import random
import sys
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

ENTRIES = 1000
TABLE = 6
ROUNDS = 8
TARGET = 1.0


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


def main() -> None:
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
    ok = pairing_time < TARGET and standings_time < TARGET
    print(f"target < {TARGET:.0f} s each: {'met' if ok else 'MISSED'}")


if __name__ == "__main__":
    main()
