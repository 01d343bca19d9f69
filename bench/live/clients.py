"""The live bench's measured clients (bench/live): bot players and spectators on real
sockets in processes of their own, and the baselines of the same run (a raw websocket echo,
a Redis pub/sub round trip, turn timers' lateness)."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import random
import threading
import time
from collections import defaultdict
from typing import Any

from bench.live.setup import free_port, origin_of, tls

# A socket: (table key, url, session cookie or None for a spectator, seed)
Socket = tuple[str, str, str | None, int]


def clock() -> float:
    return time.monotonic()


class Table:
    """One match as one client process sees it: when each version was caused by a command
    sent from here, and when it reached each of this process's sockets."""

    def __init__(self) -> None:
        self.sent: dict[int, float] = {}
        self.arrivals: dict[int, list[float]] = defaultdict(list)
        self.moves = 0


class Run:
    """What every socket of a client process shares: how many have their first state,
    and the common start and stop once the parent says go."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.connected = 0
        self.go = asyncio.Event()
        self.start = 0.0
        self.handshakes = asyncio.Semaphore(40)

    @property
    def stop(self) -> float:
        return self.start + self.seconds


async def player(url: str, cookie: str, table: Table, run: Run, seed: int, think: float) -> None:
    """A seat: knows whose turn it is from the event frames (`to_act`), asks for a state
    (its legal moves) only on its own turn, thinks, then sends its command."""
    from websockets.asyncio.client import connect

    from cacho.live.bot import choose_command

    rng = random.Random(seed)
    async with run.handshakes:  # a burst of hundreds of handshakes is not what is measured
        socket = await connect(
            url,
            additional_headers={"Cookie": cookie},
            origin=origin_of(url),
            max_queue=None,
            open_timeout=60,
            **tls(url),
        )
        first = json.loads(await asyncio.wait_for(socket.recv(), 60))
    async with socket:
        run.connected += 1
        me = first["d"]["viewer"]["player"]
        document = first["d"]  # what a state frame says; an event frame's `state` updates it
        await run.go.wait()
        await asyncio.sleep(max(0.0, run.start - clock()))
        pending = False
        waiting_state = True
        await socket.send('{"t":"state"}')
        to_act: str | None = None
        while clock() < run.stop:
            try:
                raw = await asyncio.wait_for(socket.recv(), timeout=max(0.05, run.stop - clock()))
            except TimeoutError:
                return
            now = clock()
            frame = json.loads(raw)
            kind = frame.get("t")
            if "v" in frame and kind not in ("state", "ack"):
                table.arrivals[frame["v"]].append(now)
                if "to_act" in frame:
                    to_act = frame["to_act"]
                    if to_act == me and not pending and not waiting_state:
                        if "state" not in frame:  # a server that does not send it: ask
                            waiting_state = True
                            await socket.send('{"t":"state"}')
                            continue
                        # The frame that puts me on turn carries my view: no state request.
                        frame = {"t": "state", "v": frame["v"], "d": {**document, "state": frame["state"]}}
                        kind = "state"
            if kind == "state":
                waiting_state = False
                document = frame["d"]
                if frame["d"]["status"] != "live":
                    return
                command = choose_command(frame["d"], rng)
                if command is None or pending:
                    continue
                if think:
                    await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
                if clock() >= run.stop:
                    return
                pending = True
                table.sent[frame["v"] + 1] = clock()
                await socket.send(
                    json.dumps({"t": "command", "id": f"{seed}-{frame['v']}", "v": frame["v"], "d": command})
                )
            elif kind == "ack":
                pending = False
                if frame["ok"]:
                    table.moves += 1
                # Refused (the match moved while thinking), or my own move made it my turn
                # again (a lost dudo: the loser starts): look at the table again.
                if (not frame["ok"] or to_act == me) and not waiting_state:
                    waiting_state = True
                    await socket.send('{"t":"state"}')


# Set by `--spectators-ask-state`: each spectator asks for a state 40 ms after the last
# event it received when that event's frame carried none, as the match page does
# (frontend/static/frontend/js/live.js).
SPECTATORS_ASK_STATE = "BENCH_SPECTATORS_ASK_STATE"


async def watcher(url: str, table: Table, run: Run) -> None:
    from websockets.asyncio.client import connect

    ask = os.environ.get(SPECTATORS_ASK_STATE) == "1"
    loop = asyncio.get_running_loop()
    asking: asyncio.TimerHandle | None = None

    async with run.handshakes:
        address = url + "?views=1" if ask else url  # as the page connects
        socket = await connect(address, origin=origin_of(url), max_queue=None, open_timeout=60, **tls(url))
        await asyncio.wait_for(socket.recv(), 60)  # the first state
    async with socket:
        run.connected += 1
        await run.go.wait()
        stop = run.stop + 2  # the last commands' events still count
        while clock() < stop:
            try:
                raw = await asyncio.wait_for(socket.recv(), timeout=max(0.05, stop - clock()))
            except TimeoutError:
                return
            frame = json.loads(raw)
            if "v" in frame and frame.get("t") not in ("state", "ack"):
                table.arrivals[frame["v"]].append(clock())
                if ask:
                    if asking is not None:
                        asking.cancel()  # a later event's frame answers (or asks) instead
                    if "state" not in frame:
                        asking = loop.call_later(0.04, lambda: loop.create_task(socket.send('{"t":"state"}')))


def client_process(sockets: list[Socket], think: float, seconds: float, channel: Any) -> None:
    """One client process: connect every socket, say ready, wait for the common start,
    play or watch for `seconds`, send back (sent, arrivals, moves) per table."""
    ready, go, start_at, out = channel
    gc.freeze()  # the measuring client must not pause on a collection of what it inherited

    async def main() -> dict[str, Any]:
        run = Run(seconds)
        tables: dict[str, Table] = defaultdict(Table)

        async def socket_task(key: str, url: str, cookie: str | None, seed: int) -> None:
            if cookie is None:
                await watcher(url, tables[key], run)
            else:
                await player(url, cookie, tables[key], run, seed, think)

        async def starter() -> None:
            deadline = clock() + 120
            while run.connected < len(sockets) and clock() < deadline:
                await asyncio.sleep(0.05)
            ready.put(run.connected)
            await asyncio.get_running_loop().run_in_executor(None, go.wait)
            run.start = start_at.value
            run.go.set()

        results = await asyncio.wait_for(
            asyncio.gather(starter(), *(socket_task(*item) for item in sockets), return_exceptions=True),
            seconds + 240,
        )
        errors = [repr(item) for item in results if isinstance(item, BaseException)]
        return {
            "tables": {key: (table.sent, dict(table.arrivals), table.moves) for key, table in tables.items()},
            "errors": errors[:3],
            "error_count": len(errors),
        }

    out.put(asyncio.run(main()))


def run_clients(
    sockets: list[Socket],
    expected: dict[str, int],
    clients: int,
    think: float,
    seconds: float,
    warmup: float = 0.0,
    cpu: Any = None,
    on_measure: Any = None,
) -> dict[str, Any]:
    """Spread `sockets` over `clients` processes (a table's sockets may land in several);
    returns the merged latencies (command sent → the event at every one of the table's
    `expected[table]` sockets), deliveries (command → each socket), moves and errors, of
    the commands sent after the first `warmup` seconds (a new server process's first moves
    open its connections). `cpu`: a function whose difference over the measured window
    is reported as `cpu` (seconds). `on_measure(seconds)`: called when the measured window
    opens, with its length (the profiler starts there)."""
    import multiprocessing

    from django.db import connections

    connections.close_all()
    context = multiprocessing.get_context("fork")
    ready, out = context.Queue(), context.Queue()
    go, start_at = context.Event(), context.Value("d", 0.0)
    shares = [sockets[index::clients] for index in range(clients)]
    workers = [
        context.Process(target=client_process, args=(share, think, seconds, (ready, go, start_at, out)))
        for share in shares
    ]
    for worker in workers:
        worker.start()
    connected = sum(ready.get(timeout=180) for _ in workers)
    start_at.value = clock() + 0.5
    measured_from = start_at.value + warmup
    go.set()
    used: list[float] = []
    if on_measure is not None:

        def open_window() -> None:
            time.sleep(max(0.0, measured_from - clock()))
            on_measure(seconds - warmup)

        threading.Thread(target=open_window, daemon=True).start()
    if cpu is not None:

        def probe() -> None:
            for moment in (measured_from, start_at.value + seconds):
                time.sleep(max(0.0, moment - clock()))
                used.append(cpu())

        prober = threading.Thread(target=probe, daemon=True)
        prober.start()
    parts = [out.get(timeout=seconds + 300) for _ in workers]
    if cpu is not None:
        prober.join()
    for worker in workers:
        worker.join(timeout=10)
        if worker.is_alive():
            worker.kill()
    sent: dict[str, dict[int, float]] = defaultdict(dict)
    arrivals: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    moves = 0
    errors: list[str] = []
    for part in parts:
        errors += part["errors"]
        for key, (table_sent, table_arrivals, table_moves) in part["tables"].items():
            sent[key].update(table_sent)
            for version, moments in table_arrivals.items():
                arrivals[key][version] += moments
            moves += table_moves
    latencies, deliveries, firsts, spreads = [], [], [], []
    for key, table_sent in sent.items():
        for version, moment in table_sent.items():
            if moment < measured_from:
                continue
            seen = arrivals[key].get(version, [])
            deliveries += [(arrival - moment) * 1000 for arrival in seen]
            if len(seen) == expected[key]:
                latencies.append((max(seen) - moment) * 1000)
                firsts.append((min(seen) - moment) * 1000)
                spreads.append((max(seen) - min(seen)) * 1000)
    return {
        "latencies": latencies,
        "firsts": firsts,
        "spreads": spreads,
        "deliveries": deliveries,
        "moves": moves,
        "rate": len(latencies) / max(1e-9, seconds - warmup),
        "cpu": used[1] - used[0] if len(used) == 2 else float("nan"),
        "connected": connected,
        "sockets": len(sockets),
        "errors": errors,
        "error_count": sum(part["error_count"] for part in parts),
    }


async def websocket_echo(rounds: int = 2000) -> list[float]:
    from websockets.asyncio.client import connect
    from websockets.asyncio.server import serve

    async def echo(connection: Any) -> None:
        async for message in connection:
            await connection.send(message)

    port = free_port()
    async with serve(echo, "127.0.0.1", port), connect(f"ws://127.0.0.1:{port}") as socket:
        out = []
        for _ in range(rounds):
            start = time.perf_counter()
            await socket.send('{"t":"ping"}')
            await socket.recv()
            out.append((time.perf_counter() - start) * 1000)
        return out


async def redis_pubsub(url: str, rounds: int = 2000) -> list[float]:
    import redis.asyncio as redis

    client = redis.Redis.from_url(url)
    pubsub = client.pubsub()
    await pubsub.subscribe("bench-live")
    await pubsub.get_message(timeout=1)
    out = []
    for _ in range(rounds):
        start = time.perf_counter()
        await client.publish("bench-live", "x")
        while (await pubsub.get_message(timeout=1)) is None:
            pass
        out.append((time.perf_counter() - start) * 1000)
    await pubsub.aclose()
    await client.aclose()
    return out


def timer_lateness(since_ms: float) -> list[float]:
    """Recorded time of each timed-out move minus the deadline it was made for, for the
    deadlines after `since_ms` (earlier ones were due before the worker had started)."""
    from cacho.models import Event

    late = []
    previous: dict[str, int] = {}
    for event in Event.objects.order_by("stream_id", "version").iterator():
        key = str(event.stream_id)
        if event.payload.get("timed_out") and key in previous and previous[key] >= since_ms:
            late.append(event.recorded_at.timestamp() * 1000 - previous[key])
        deadline = event.metadata.get("deadline")
        if deadline is not None:
            previous[key] = deadline
    return late
