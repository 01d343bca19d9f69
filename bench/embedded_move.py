"""What a move costs in embedded mode (`make run`: SQLite, the in-memory channel layer,
in-process timers): `cacho.services.matches.submit` of moves chosen by the engine's bot
policy, 4-player Dudo matches one after the other, in one process, after-commit work
included (it runs inline on SQLite).

    .venv/bin/python bench/embedded_move.py [--moves 1000] [--rounds 3]

Uses a SQLite database of its own in a temporary folder; DATABASE_URL and REDIS_URL are
ignored. Prints the wall time per move of each round (the client's choice of move is not
timed).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

PLAYERS = ["ana", "beto", "caro", "dani"]


def play(moves: int, rng: random.Random) -> float:
    """Milliseconds per move over `moves` moves."""
    from cacho.services import matches
    from tests.cacho.helpers import bot_move, state_of, version_of

    match: Any = matches.create_match("dudo", PLAYERS, first_seat=0)
    spent, done = 0.0, 0
    while done < moves:
        cached = matches.STATES.get(str(match.pk))
        version, state = (cached.version, cached.state) if cached else (version_of(match), state_of(match))
        if state.phase == "over":
            match = matches.create_match("dudo", PLAYERS, first_seat=0)
            continue
        player, command = bot_move(state, rng)
        started = time.perf_counter()
        matches.submit(match.pk, player, command, f"m{done}-{rng.random()}", version)
        spent += time.perf_counter() - started
        done += 1
    return spent / moves * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=1000, help="per round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for name in ("DATABASE_URL", "REDIS_URL"):
        os.environ.pop(name, None)
    os.environ["CACHO_DATA_DIR"] = tempfile.mkdtemp(prefix="cacho-embedded-bench-")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings")
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    import django

    django.setup()
    from django.core.management import call_command

    from cacho.services.startup import load_write_path

    call_command("migrate", verbosity=0)
    load_write_path()
    rng = random.Random(1)
    play(100, rng)  # warm: connections, caches, the first matches
    rounds = [play(args.moves, rng) for _ in range(args.rounds)]
    print(
        f"embedded mode, {args.moves} moves a round: "
        + ", ".join(f"{ms:.2f}" for ms in rounds)
        + f" ms per move (median {statistics.median(rounds):.2f} ms)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
