"""What one notice costs the sending process: the CPU time of channels-redis's `group_send`
(the path every match notice takes, cacho.services.notices): the list layer's to an empty
group and to a group with one member, and the pub/sub layer's (the servers' default).

    REDIS_URL=redis://127.0.0.1:6379/15 .venv/bin/python bench/notice.py [--sends 2000]

Uses a layer prefix of its own on REDIS_URL and deletes its keys at the end; nothing else
is touched. Prints the CPU time per send (process time, so other work on the machine
moves it little) and the wall time per send; then what loading the layer's backend costs
a fresh process (what `cacho.services.startup` spares a serving process's first move).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Run in a fresh interpreter with the project's settings: the CPU time of making the layer.
LOAD = """
import time, django
django.setup()
from channels.layers import get_channel_layer
began = time.process_time()
get_channel_layer()
print(f"{(time.process_time() - began) * 1000:.0f}")
"""

MEMBER = "hub-bench"  # a server process's hub channel: the capacity the servers give it


async def _sends(layer: object, group: str, count: int) -> tuple[float, float]:
    message = {"type": "match.events", "group": group, "version": 1, "events": []}
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(count):
        await layer.group_send(group, message)  # type: ignore[attr-defined]
    return (time.process_time() - cpu) / count, (time.perf_counter() - wall) / count


async def run(url: str, count: int) -> list[str]:
    from channels_redis.core import RedisChannelLayer

    prefix = f"cachobench{uuid.uuid4().hex[:8]}"
    layer = RedisChannelLayer(
        hosts=[{"address": url, "socket_timeout": None}],
        prefix=prefix,
        channel_capacity={"hub-*": count + 10},  # every send lands: none is dropped as full
    )
    lines = []
    try:
        await _sends(layer, "warm", 100)  # the connection pool and the scripts, as a serving process has them
        for label, group in (("an empty group", "empty"), ("a group with one member", "one")):
            if group == "one":
                await layer.group_add(group, MEMBER)
            cpu, wall = await _sends(layer, group, count)
            lines.append(
                f"group_send to {label}: {cpu * 1000:.2f} ms CPU, {wall * 1000:.2f} ms wall per send"
            )
    finally:
        import redis

        client = redis.Redis.from_url(url)
        for key in client.scan_iter(f"{prefix}*"):
            client.delete(key)
    return lines + await run_pubsub(url, count)


async def run_pubsub(url: str, count: int) -> list[str]:
    """The pub/sub layer (CACHO_REDIS_LAYER=pubsub, the default): a send is one PUBLISH,
    whatever the subscribers (Redis fans it out), so one figure."""
    from channels_redis.pubsub import RedisPubSubChannelLayer

    layer = RedisPubSubChannelLayer(
        hosts=[{"address": url, "socket_timeout": None}], prefix=f"cachobench{uuid.uuid4().hex[:8]}"
    )
    try:
        await _sends(layer, "warm", 100)
        cpu, wall = await _sends(layer, "any", count)
    finally:
        await layer.flush()
    return [f"pub/sub layer, group_send: {cpu * 1000:.2f} ms CPU, {wall * 1000:.2f} ms wall per send"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sends", type=int, default=2000)
    args = parser.parse_args()
    url = os.environ.get("REDIS_URL")
    if not url:
        print("REDIS_URL is not set", file=sys.stderr)
        return 2
    print(f"{args.sends} sends of each kind, channels-redis on {url}")
    print("\n".join(asyncio.run(run(url, args.sends))))
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "project.settings"}
    loads = [
        subprocess.run(
            [sys.executable, "-c", LOAD], cwd=ROOT, env=env, capture_output=True, text=True, check=True
        ).stdout.strip()
        for _ in range(3)
    ]
    print(f"loading the layer's backend in a fresh process: {', '.join(loads)} ms CPU (3 processes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
