"""Benchmark of the Alalay engine: turns per second and the replay time of a full match.

Run `python bench/engine_alalay.py`; `run(seconds_budget)` returns the printed lines.
Dice and choices come from `random.Random(seed)` here, never from the engine.
"""

from __future__ import annotations

import random
import sys
import time
from functools import reduce
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cacho.engine.alalay import Event, State, apply, new_match, replay
from cacho.engine.alalay.commands import Command
from cacho.engine.games import GAMES, DiceNeeded

GAME = GAMES["alalay"]


def _choose(state: State, rng: random.Random) -> Command:
    """The game's bot policy for the entry on turn, its dice rolled here (as the service does)."""
    entry = GAME.to_act(state)
    assert entry is not None
    payload = GAME.bot_payload(state, entry, rng)
    assert payload is not None
    command = GAME.parse_command(entry, payload, 0)
    if isinstance(command, DiceNeeded):
        return command.build(tuple(rng.randint(1, 6) for _ in range(command.count)))
    return command


def play_match(seed: int, players: int = 4) -> tuple[State, list[Event], int]:
    """A random match; returns its final state, its events and its number of turns (boxes filled)."""
    rng = random.Random(seed)
    state, events = new_match([f"P{i}" for i in range(players)], first=rng.randrange(players))
    while not state.over:
        state, more = apply(state, _choose(state, rng))
        events += more
    turns = sum(1 for e in events if e.TYPE in ("box_scored", "box_scratched", "match_ended"))
    return state, events, turns


def run(seconds_budget: float = 2.0) -> list[str]:
    lines: list[str] = []
    start = time.perf_counter()
    matches = turns = 0
    longest: list[Event] = []
    while time.perf_counter() - start < seconds_budget * 0.6 or matches == 0:
        _, events, count = play_match(matches)
        matches += 1
        turns += count
        if len(events) > len(longest):
            longest = events
    elapsed = time.perf_counter() - start
    lines.append(
        f"play: {matches} random 4-player matches, {turns} turns in {elapsed:.2f} s "
        f"= {turns / elapsed:,.0f} turns/s (decide+evolve, the bot policy on the entry's view for choices)"
    )
    reps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds_budget * 0.2 or reps == 0:
        final = replay(longest)
        reps += 1
    per_replay = (time.perf_counter() - t0) / reps
    plain = [{"type": e.TYPE} for e in longest]
    reps_base = 0
    t1 = time.perf_counter()
    while time.perf_counter() - t1 < seconds_budget * 0.2 or reps_base == 0:
        folded = reduce(lambda s, e: {**s, "n": s["n"] + 1}, plain, {"n": 0})
        reps_base += 1
    per_base = (time.perf_counter() - t1) / reps_base
    assert final.over and folded["n"] == len(longest)
    lines.append(
        f"replay: full match of {len(longest)} events in {per_replay * 1e3:.3f} ms "
        f"({per_replay / len(longest) * 1e6:.2f} us/event)"
    )
    lines.append(
        f"baseline: trivial fold of {len(plain)} plain dicts in {per_base * 1e3:.3f} ms "
        f"({per_base / len(plain) * 1e6:.2f} us/event); replay/baseline = {per_replay / per_base:.1f}x"
    )
    return lines


if __name__ == "__main__":
    print("\n".join(run()))
