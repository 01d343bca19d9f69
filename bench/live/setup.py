"""The live bench's servers (bench/live): the bench database and Redis prepared, Django set
up in the bench process, two uvicorn processes and a Celery worker with beat started and
watched, matches made, and the figures' formatting and their section in docs/benchmarks.md."""

from __future__ import annotations

import contextlib
import os
import secrets
import subprocess
import sys
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


HEADING = "## Live play (bench/live)"


PROXY_HEADING = "## Live play through nginx (bench/live --through-proxy)"


# The client side of wss:// sockets (through nginx): trusts the topology's certificate.
TLS: dict[str, Any] = {}


def tls(url: str) -> dict[str, Any]:
    return {"ssl": TLS["context"]} if url.startswith("wss://") else {}


def origin_of(url: str) -> str:
    """The page origin a browser would send for this socket (the origin check: scheme, host, port)."""
    return url.split("/ws/")[0].replace("wss://", "https://").replace("ws://", "http://")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def figures(values: list[float]) -> str:
    return f"p50 {percentile(values, 0.5):.1f} ms, p99 {percentile(values, 0.99):.1f} ms (n={len(values)})"


def prepare(
    database_url: str, redis_url: str, *, bench: str = "live", flush_redis: bool = True, **extra: str
) -> dict[str, str]:
    """A migrated database of the bench's own (`<name>_bench_<bench>`) and the servers'
    environment on it: production settings, `extra` added; Redis flushed unless it is not
    running yet (`flush_redis=False`)."""
    import psycopg

    parts = urllib.parse.urlsplit(database_url)
    name = f"{parts.path.lstrip('/') or 'cacho'}_bench_{bench}"
    with psycopg.connect(parts._replace(path="/postgres").geturl(), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE")
    }
    env.update(
        DATABASE_URL=parts._replace(path=f"/{name}").geturl(),
        REDIS_URL=redis_url,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        # Measured as deployed: production settings (DEBUG off), plain ws:// on loopback.
        CACHO_ENV=os.environ.get("BENCH_CACHO_ENV", "production"),
        SECRET_KEY=secrets.token_urlsafe(50),
        SECURE_SSL_REDIRECT="0",
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
        **extra,
    )
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    if flush_redis:
        import redis

        redis.Redis.from_url(env["REDIS_URL"]).flushdb()
    return env


def setup_django(env: dict[str, str]) -> None:
    os.environ.update(
        {key: env[key] for key in ("DATABASE_URL", "REDIS_URL", "ALLOWED_HOSTS", "CACHO_ENV", "SECRET_KEY")},
        DJANGO_SETTINGS_MODULE="project.settings",
        SECURE_SSL_REDIRECT="0",
    )
    import django

    django.setup()


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_until_serving(urls: list[str], celery_log: Path, started: list[Any], timeout: float = 60) -> None:
    """Every uvicorn port accepts and the Celery worker says it is ready."""
    import socket

    deadline = time.monotonic() + timeout
    pending = [int(url.rsplit(":", 1)[1]) for url in urls]
    while pending or b" ready." not in celery_log.read_bytes():
        if time.monotonic() > deadline or any(process.poll() is not None for process in started):
            raise RuntimeError(f"the servers did not start; see {celery_log.parent}")
        for port in list(pending):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
                pending.remove(port)
        time.sleep(0.1)


@dataclass(frozen=True)
class Serving:
    urls: list[str]
    pids: list[int]  # the processes started (their children count with them)

    def cpu_seconds(self) -> float:
        """CPU time used so far by the server processes, their children and Redis."""
        return sum(_process_cpu(pid) for pid in _with_descendants(self.pids)) + _redis_cpu()


def _with_descendants(pids: list[int]) -> list[int]:
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
    found, frontier = set(pids), list(pids)
    while frontier:
        parent = frontier.pop()
        for child, its_parent in parents.items():
            if its_parent == parent and child not in found:
                found.add(child)
                frontier.append(child)
    return sorted(found)


def _process_cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def _redis_cpu() -> float:
    import redis

    info = redis.Redis.from_url(os.environ["REDIS_URL"]).info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


@contextlib.contextmanager
def processes(env: dict[str, str], servers: int, log_dir: Path) -> Any:
    started: list[subprocess.Popen[bytes]] = []
    urls = []
    try:
        for number in range(servers):
            port = free_port()
            log = (log_dir / f"uvicorn-{number}.log").open("wb")
            started.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "uvicorn",
                        "project.asgi:application",
                        "--port",
                        str(port),
                        "--lifespan",
                        "off",
                        "--log-level",
                        "warning",
                        "--ws-max-queue",
                        "256",
                        "--ws-per-message-deflate",  # as deployed (deploy/Procfile)
                        "false",
                    ],
                    cwd=ROOT,
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
            urls.append(f"ws://127.0.0.1:{port}")
        log = (log_dir / "celery.log").open("wb")
        started.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "project",
                    "worker",
                    "-B",
                    "-c",
                    "2",
                    "-l",
                    "info",
                    "-s",
                    str(log_dir / "beat.db"),
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        )
        wait_until_serving(urls, log_dir / "celery.log", started)
        yield Serving(urls, [process.pid for process in started])
    finally:
        for process in started:
            process.terminate()
        for process in started:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def make_matches(count: int, players: int, turn_seconds: int, prefix: str) -> list[tuple[str, list[str]]]:
    """Matches with seated users; returns (match id, session cookie per seat)."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    from cacho.services import matches

    made = []
    for number in range(count):
        names = [f"{prefix}{number}p{seat}" for seat in range(players)]
        match = matches.create_match("dudo", names, turn_seconds=turn_seconds)
        cookies = []
        for index, name in enumerate(names):
            user = get_user_model().objects.create_user(name)
            matches.take_seat(match.pk, index, user)
            client = Client()
            client.force_login(user)
            cookies.append(
                f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
            )
        made.append((str(match.pk), cookies))
    return made


def write_section(lines: list[str], heading: str = HEADING) -> None:
    path = ROOT / "docs" / "benchmarks.md"
    text = path.read_text() if path.exists() else "# Benchmarks\n"
    section = heading + "\n\n" + "\n".join(lines) + "\n"
    if heading in text:
        before, _, rest = text.partition(heading)
        after = rest.split("\n## ", 1)
        text = before + section + ("\n## " + after[1] if len(after) > 1 else "")
    else:
        text = text.rstrip() + "\n\n" + section
    path.write_text(text)
