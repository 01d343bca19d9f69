"""Engine benchmark: decide+evolve throughput and replay time, beside a trivial fold.

Run `python bench/engine.py`. 6-player bidding games (every ruleset) played by the
game's bot policy (`cacho.engine.bidding.bots`, with timeouts), then Alalay
(bench/engine_alalay.py). Dice and choices come from `random.Random(seed)` here,
never from the engine.
"""

from __future__ import annotations

import json
import random
import sys
import time
from functools import reduce
from pathlib import Path
from typing import Any

import orjson

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.timing import best_of
from cacho.engine.bidding import (
    RULESETS,
    Event,
    decide,
    evolve,
    initial_state,
    replay,
    start_match,
    view,
)
from cacho.engine.bidding.bots import random_command
from cacho.engine.bidding.commands import Command
from cacho.engine.bidding.serialization import event_to_dict
from cacho.engine.viewer import Viewer

PLAYERS = [f"p{i}" for i in range(6)]
REPLAY_ACTIONS = 300


def random_game(ruleset: str, seed: int, raise_weight: int = 2) -> tuple[list[Command], list[Event]]:
    rng = random.Random(seed)
    first = start_match(ruleset, PLAYERS, starter=PLAYERS[rng.randrange(6)])
    state = initial_state(first)
    commands: list[Command] = []
    events: list[Event] = [first]
    while state.phase != "over":
        command = random_command(state, rng, raise_weight=raise_weight)
        new = decide(state, command)
        commands.append(command)
        for event in new:
            state = evolve(state, event)
        events.extend(new)
    return commands, events


def throughput(games: list[tuple[list[Command], list[Event]]]) -> tuple[int, float]:
    """Re-decide and apply every recorded command of every game; (actions, seconds)."""
    actions = 0
    start = time.perf_counter()
    for commands, events in games:
        state = initial_state(events[0])  # type: ignore[arg-type]
        for command in commands:
            for event in decide(state, command):
                state = evolve(state, event)
        actions += len(commands)
    return actions, time.perf_counter() - start


def mid_round_states(games: list[tuple[list[Command], list[Event]]]) -> list[tuple[Any, str]]:
    """(state, player on turn) after every event of the games that leaves a round in play."""
    found = []
    for _, events in games:
        state = initial_state(events[0])  # type: ignore[arg-type]
        for event in events[1:]:
            state = evolve(state, event)
            if state.round is not None and state.phase != "over" and state.paused is None:
                found.append((state, state.config.players[state.round.to_act]))
    return found


def trivial_fold(plain: list[dict[str, Any]]) -> dict[str, Any]:
    return reduce(
        lambda state, event: {**state, "version": state["version"] + 1, "last": event["type"]},
        plain,
        {"version": 0, "last": None},
    )


def main() -> list[str]:
    lines = ["== bidding engine (6 players, random legal play) =="]
    offered: list[tuple[Any, str]] = []
    for ruleset in RULESETS:
        games = [random_game(ruleset, seed) for seed in range(20)]
        actions, seconds = throughput(games)
        lines.append(
            f"{ruleset:>13}: {actions / seconds:>9,.0f} actions/s decided+applied "
            f"({actions} actions in {seconds:.2f} s, {seconds / actions * 1e6:.1f} us/action)"
        )
        offered += mid_round_states(games[:3])
    # What the player put on turn is sent after each move: their view, most of it what the
    # table offers them (its `legal`: the quantities biddable on each face, the answers).
    viewers = [(state, Viewer.of_player(player)) for state, player in offered]
    view_s = best_of(20, lambda: [view(state, viewer) for state, viewer in viewers])
    lines.append(
        f"view of the player on turn: {view_s / len(viewers) * 1e6:.1f} us "
        f"(best of 20 over {len(viewers)} mid-round states of every ruleset)"
    )
    # ... and sent as the text of its frame (cacho.live.reads.dumps: orjson, as written there).
    frames = [{"t": "ev", "v": 1, "state": view(state, viewer)} for state, viewer in viewers]
    standard_s = best_of(
        20, lambda: [json.dumps(f, separators=(",", ":"), ensure_ascii=False) for f in frames]
    )
    orjson_s = best_of(20, lambda: [orjson.dumps(f, option=orjson.OPT_NON_STR_KEYS).decode() for f in frames])
    size = sum(len(json.dumps(f)) for f in frames) / len(frames)
    lines.append(
        f"that view as a frame's text ({size:,.0f} bytes): json {standard_s / len(frames) * 1e6:.1f} us, "
        f"orjson {orjson_s / len(frames) * 1e6:.1f} us"
    )
    # a 300-action match: the events of the first long game, cut at 300 events
    seed = 0
    while True:  # long rounds: bots that mostly raise
        _, events = random_game("dudo", seed, raise_weight=20)
        if len(events) >= REPLAY_ACTIONS + 1:
            break
        seed += 1
    log = events[: REPLAY_ACTIONS + 1]
    plain = [event_to_dict(event) for event in log]
    replay_s = best_of(200, lambda: replay(log))
    fold_s = best_of(200, lambda: trivial_fold(plain))
    lines.append(
        f"replay of a {REPLAY_ACTIONS}-action dudo match: {replay_s * 1e3:.3f} ms "
        f"({replay_s / len(log) * 1e6:.2f} us/event; target < 2 ms)"
    )
    lines.append(
        f"baseline, trivial fold of the same {len(plain)} plain dicts: {fold_s * 1e3:.3f} ms "
        f"({fold_s / len(plain) * 1e6:.2f} us/event); engine/baseline = {replay_s / fold_s:.1f}x"
    )
    return lines


if __name__ == "__main__":
    print("\n".join(main()))
    from bench.engine_alalay import run as run_alalay

    print("== alalay engine (4 players, random legal play) ==")
    print("\n".join(run_alalay()))
