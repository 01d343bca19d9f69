"""The chaos bench's servers (bench/chaos): a PostgreSQL cluster, Redis, two uvicorn
processes, a Celery worker and beat of its own, started, watched and faulted (each kind of
fault, alone or two at once)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

from bench.live.setup import free_port

ROOT = Path(__file__).resolve().parents[2]


SILENCE = 30.0  # seconds without a frame after which a socket is taken as stuck


APP = "cacho-chaos"  # application_name of the app's PostgreSQL connections


KINDS = ["web", "worker", "redis-restart", "pg-terminate", "beat", "redis-stop", "pg-restart"]


# After each kind once alone, two at once, in turn.
PAIRS = [("web", "redis-restart"), ("worker", "pg-terminate"), ("beat", "redis-stop"), ("web", "pg-restart"),
         ("worker", "redis-restart")]  # fmt: skip


def schedule(count: int) -> list[tuple[str, ...]]:
    plan: list[tuple[str, ...]] = [(kind,) for kind in KINDS]
    plan += PAIRS
    return [plan[number % len(plan)] for number in range(count)]


def pg_binary(name: str) -> str:
    found = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
    return str(found[-1] if found else name)


def init_cluster(log_dir: Path) -> Path:
    """A PostgreSQL cluster of the run's own (the fault restarts its server), owned by
    `postgres` when the bench runs as root (the server refuses root)."""
    data = log_dir / "pgdata"
    subprocess.run(["rm", "-rf", str(data)], check=True)
    data.mkdir(parents=True)
    (log_dir / "pgsock").mkdir(exist_ok=True)
    if os.geteuid() == 0:
        subprocess.run(["chown", "-R", "postgres:postgres", str(data), str(log_dir / "pgsock")], check=True)
    subprocess.run([pg_binary("initdb"), "-D", str(data), "-U", "root", "--auth=trust", "-E", "UTF8"],
                   check=True, capture_output=True, **as_postgres())  # fmt: skip
    return data


def as_postgres() -> dict[str, Any]:
    return {"user": "postgres", "group": "postgres"} if os.geteuid() == 0 else {}


class Cluster:
    """The processes of the run, each started again by name after a fault."""

    def __init__(self, env: dict[str, str], log_dir: Path, webs: int, redis_port: int, pg_port: int) -> None:
        self.env, self.log_dir, self.redis_port, self.pg_port = env, log_dir, redis_port, pg_port
        self.web_ports = [free_port() for _ in range(webs)]
        self.procs: dict[str, subprocess.Popen[bytes]] = {}

    def command(self, name: str) -> list[str]:
        if name == "postgres":
            return [pg_binary("postgres"), "-D", str(self.log_dir / "pgdata"), "-p", str(self.pg_port),
                    "-k", str(self.log_dir / "pgsock"), "-c", "listen_addresses=127.0.0.1",
                    "-c", "fsync=off", "-c", "max_connections=200"]  # fmt: skip
        if name == "redis":
            return ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1", "--save", "",
                    "--appendonly", "no"]  # fmt: skip
        if name.startswith("web"):
            port = self.web_ports[int(name[3:])]
            return [sys.executable, "-m", "uvicorn", "project.asgi:application", "--port", str(port),
                    "--lifespan", "off", "--log-level", "warning",
                    "--ws-per-message-deflate", "false"]  # fmt: skip
        if name == "worker":
            return [sys.executable, "-m", "celery", "-A", "project", "worker", "-c", "2", "-l", "info"]
        return [sys.executable, "-m", "celery", "-A", "project", "beat", "-l", "info", "-s",
                str(self.log_dir / "beat.db")]  # fmt: skip

    def start(self, name: str) -> None:
        log = (self.log_dir / f"{name}.log").open("ab")
        extra = as_postgres() if name == "postgres" else {}
        self.procs[name] = subprocess.Popen(self.command(name), cwd=ROOT if not extra else "/", env=self.env,
                                            stdout=log, stderr=subprocess.STDOUT, **extra)  # fmt: skip
        if name == "redis":
            wait_port(self.redis_port)
        elif name == "postgres":
            wait_port(self.pg_port)
            wait_postgres(self.pg_port)
        elif name.startswith("web"):
            wait_port(self.web_ports[int(name[3:])])

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        process = self.procs[name]
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(sig)
        process.wait(timeout=30)

    def pids(self, name: str) -> list[int]:
        """The process and its children (the worker's pool, uvicorn has none)."""
        root = self.procs[name].pid
        found, frontier = [root], [root]
        while frontier:
            parent = frontier.pop()
            with contextlib.suppress(OSError):
                children = Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
                found += [int(c) for c in children]
                frontier += [int(c) for c in children]
        return found

    def stop_all(self) -> None:
        postgres = self.procs.pop("postgres", None)
        for process in self.procs.values():
            if process.poll() is None:
                process.terminate()
        for process in self.procs.values():
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        if postgres is not None and postgres.poll() is None:
            postgres.send_signal(signal.SIGINT)  # a fast shutdown
            postgres.wait(timeout=30)


def wait_postgres(port: int, timeout: float = 60) -> None:
    """The port answers before the server accepts queries (recovery after a restart)."""
    import psycopg

    deadline = time.monotonic() + timeout
    while True:
        try:
            with psycopg.connect(f"postgres://root@127.0.0.1:{port}/postgres", connect_timeout=2):
                return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def wait_port(port: int, timeout: float = 30) -> None:
    import socket

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {port}")


def terminate_app_connections(database_url: str) -> int:
    import psycopg

    parts = urllib.parse.urlsplit(database_url)
    with psycopg.connect(parts._replace(path="/postgres").geturl(), autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s", [APP]
        ).fetchall()
    return len(rows)


def fault(cluster: Cluster, kind: str, number: int) -> None:
    if kind == "web":
        name = f"web{number % len(cluster.web_ports)}"
        cluster.kill(name)
        cluster.start(name)
    elif kind in ("worker", "beat"):
        cluster.kill(kind)
        cluster.start(kind)
    elif kind == "redis-restart":
        cluster.kill("redis")
        cluster.start("redis")
    elif kind == "redis-stop":
        cluster.kill("redis")
        time.sleep(5)
        cluster.start("redis")
    elif kind == "pg-terminate":
        terminate_app_connections(cluster.env["DATABASE_URL"])
    elif kind == "pg-restart":
        cluster.kill("postgres", signal.SIGINT)  # a fast shutdown: every connection goes
        cluster.start("postgres")


def faults_at_once(cluster: Cluster, kinds: tuple[str, ...], number: int) -> None:
    """Two faults at once: each in a thread of its own, both started together."""
    threads = [threading.Thread(target=fault, args=(cluster, kind, number)) for kind in kinds]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
