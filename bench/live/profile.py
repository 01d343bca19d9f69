"""Where a live move's server CPU goes: reads the py-spy samples `bench/live --profile DIR`
wrote (one file per server process and level, the GIL holder sampled `PROFILE_RATE` times a
second) and prints milliseconds per measured move by process kind and by part of the work.

    .venv/bin/python -m bench.live.profile DIR/<variant>-<level> [--top 25]

A sample goes to the first part (in the order of `PARTS`) one of whose patterns is in one of
its frames (function and file), so a Redis call made by the hub counts as the hub's; what
no pattern names is "other" (`--top` lists the busiest frames of it).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench.live.capacity import PROFILE_RATE

# (part, patterns): a frame "function (file:line)" matches when it contains a pattern.
PARTS: list[tuple[str, tuple[str, ...]]] = [
    (
        "socket open/close (handshake, presence rows)",
        ("MatchConsumer.connect", "MatchConsumer.disconnect", "websocket_disconnect"),
    ),
    ("write path: command on the socket (decide, append, commit)", ("submit_command (",)),
    ("after commit: projections (dispatch thread)", ("project (", "projections.py")),
    (
        "after commit: timer check/publish (dispatch thread)",
        ("schedule_if_current", "deadlines.py", "schedule_deadline"),
    ),
    ("after commit: dispatch thread, rest (connections)", ("Dispatcher._work",)),
    ("channel layer: notice group_send", ("NoticeLoop", "group_send")),
    (
        "channel layer: hub receive",
        ("Hub._run", "_do_receiving", "_receive_message", "_clean_receive_backup", "receive_single"),
    ),
    ("socket: state frame (asked after an event)", ("_send_state",)),
    ("socket: catch-up read from the store", ("_catch_up", "frames_after")),
    ("socket: event frames rendered and sent", ("match_events", "_send_wire", "frames_from_wire")),
    ("socket: ack and other frames sent", ("MatchConsumer._send (",)),
    ("socket: frame parsed, rate bucket", ("parse_client_frame", "Bucket.take", "MatchConsumer.receive")),
    (
        "websocket protocol (uvicorn, websockets)",
        ("websockets_sansio_impl", "websockets/", "uvicorn/protocols"),
    ),
    ("celery: turn timers (expire_turn)", ("expire_turn", "expire_deadline")),
    ("celery: beat sweeps", ("sweep_deadlines", "sweep_connections", "due_turns")),
    ("celery: beat scheduler", ("beat.py",)),
    ("celery: broker polling (kombu)", ("kombu/", "asynloop", "hub.py (")),
    ("database connection pool (psycopg_pool)", ("psycopg_pool",)),
    ("event loop (asyncio)", ("base_events.py", "selector_events.py", "events.py")),
    # py-spy reads a coroutine's stack while the loop switches: some come cut short.
    ("channel layer: Redis client, caller not sampled", ("redis/", "channels_redis/")),
    ("database client, caller not sampled", ("psycopg/", "django/db/")),
]
OTHER = "other"


def frame_name(frame: str) -> str:
    name, _, where = frame.partition(" (")
    return f"{name} ({where.rsplit('/', 1)[-1].split(':')[0]}"


def classify(frames: list[str]) -> str:
    for part, patterns in PARTS:
        for frame in frames:
            if any(pattern in frame for pattern in patterns):
                return part
    return OTHER


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("folder", type=Path)
    parser.add_argument("--top", type=int, default=0, help="list the busiest leaf frames of `other`")
    args = parser.parse_args()
    run = json.loads((args.folder / "run.json").read_text())
    moves = max(1, run["moves"])
    per_kind: Counter[str] = Counter()
    per_part: Counter[tuple[str, str]] = Counter()
    unnamed: Counter[str] = Counter()
    for path in sorted(args.folder.glob("*.txt")):
        kind = path.stem.split("-")[0]
        for line in path.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            frames = stack.split(";")
            samples = int(count)
            part = classify(frames)
            per_kind[kind] += samples
            per_part[(kind, part)] += samples
            if part == OTHER:
                unnamed[f"{kind}: {frame_name(frames[-1])}"] += samples

    def ms(samples: int) -> float:
        return float(1000 * samples / PROFILE_RATE / moves)

    print(
        f"{args.folder.name}: {run['moves']} moves measured; server CPU from /proc (with Redis) "
        f"{1000 * run['cpu_seconds'] / moves:.2f} ms/move; "
        f"sampled (GIL held) {ms(sum(per_kind.values())):.2f} ms/move"
    )
    for kind, seconds in (run.get("by_kind") or {}).items():
        print(f"  {kind} (from /proc): {1000 * seconds / moves:.2f} ms/move")
    for kind, samples in per_kind.most_common():
        print(f"\n{kind}: {ms(samples):.2f} ms/move")
        for (its_kind, part), count in sorted(per_part.items(), key=lambda item: -item[1]):
            if its_kind == kind:
                print(f"  {ms(count):6.2f} ms  {part}")
    for name, samples in unnamed.most_common(args.top):
        print(f"  other {ms(samples):6.3f} ms  {name}")


if __name__ == "__main__":
    main()
