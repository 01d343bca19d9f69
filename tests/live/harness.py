"""Real components for live-play tests: uvicorn and Celery workers in subprocesses on the
test database and Redis, sockets from the `websockets` client, users logged in by session."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from websockets.asyncio.client import ClientConnection, connect

from tests.test_foundation.helpers import POLL, PYTHON, ROOT, Server, ServerForks, clean_env, serve


def services_env(data_dir: Path, **extra: str) -> dict[str, str]:
    """The environment of a server or worker sharing this test's database and Redis."""
    db = connection.settings_dict
    url = f"postgres://{db['USER'] or 'root'}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    return clean_env(
        data_dir,
        DATABASE_URL=url,
        REDIS_URL=os.environ["REDIS_URL"],
        ALLOWED_HOSTS="127.0.0.1,localhost",
        **extra,
    )


@contextlib.contextmanager
def asgi_server(env: dict[str, str], log_dir: Path, forks: ServerForks | None = None) -> Iterator[Server]:
    """A server with `env`: forked by `forks` when that runs with the same environment (the
    data directory apart, which only embedded mode reads), else started afresh."""
    same = forks is not None and _without_data_dir(forks.env) == _without_data_dir(env)
    with serve(env, log_dir, forks=forks if same else None) as server:
        yield server


def _without_data_dir(env: dict[str, str]) -> dict[str, str]:
    return {key: value for key, value in env.items() if key != "CACHO_DATA_DIR"}


@dataclass
class Worker:
    process: subprocess.Popen[bytes]
    log: Path

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_for(self, text: str, timeout: float = 15.0) -> None:
        """Return once the worker's log says `text`."""
        wait_for(lambda: text in self.output(), timeout, lambda: self.output()[-2000:])


def wait_for(condition: Any, timeout: float = 10.0, explain: Any = None) -> None:
    """Poll `condition` (another process's doing) until it holds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout:g} s" + (f":\n{explain()}" if explain else ""))
        time.sleep(POLL)


@contextlib.contextmanager
def celery_worker(
    env: dict[str, str], log_dir: Path, *, beat: bool = False, name: str = "w", graceful: bool = False
) -> Iterator[Worker]:
    """A real prefork worker (`-c 2`: docs/pitfalls.md), without mingle, optionally with the
    beat scheduler.

    At the end it is killed, as after a crash, unless `graceful` (a test of what a worker
    does as it stops): a warm shutdown waits about 1.5 s for the prefork pool to stop, and
    the test is over by then."""
    log = log_dir / f"celery-{name}-{time.monotonic_ns()}.log"
    args = [
        PYTHON,
        "-m",
        "celery",
        "-A",
        "project",
        "worker",
        "-c",
        "2",
        "-l",
        "info",
        "-n",
        f"{name}@%h",
        # Mingle asks the other workers for the tasks they revoked and waits a second for
        # the answers at every start; the project revokes no task.
        "--without-mingle",
    ]
    if beat:
        args += ["-B", "-s", str(log_dir / f"beat-{name}.db")]
    with log.open("wb") as sink:
        # A process group of its own: the pool's children end with it.
        process = subprocess.Popen(
            args, cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True
        )
    worker = Worker(process, log)
    try:
        wait_for(lambda: " ready." in worker.output() or process.poll() is not None, 40, worker.output)
        if process.poll() is not None:
            raise AssertionError(f"celery worker did not start:\n{worker.output()}")
        yield worker
    finally:
        if graceful and process.poll() is None:
            process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=15)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=15)


def session_cookie(username: str, *, staff: bool = False) -> dict[str, str]:
    """A user logged in through Django's session machinery: the Cookie header of their sockets."""
    user, _ = get_user_model().objects.get_or_create(username=username, defaults={"is_staff": staff})
    client = Client()
    client.force_login(user)
    return {"Cookie": f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"}


def ws_url(server: Server, match_id: Any) -> str:
    return server.url.replace("http://", "ws://") + f"/ws/matches/{match_id}/"


@dataclass
class Socket:
    """A client socket that keeps every frame it receives."""

    connection: ClientConnection
    frames: list[dict[str, Any]] = field(default_factory=list)

    async def send(self, frame: dict[str, Any]) -> None:
        await self.connection.send(json.dumps(frame))

    async def next(self, predicate: Any = None, timeout: float = 10.0) -> dict[str, Any]:
        """The next frame (matching `predicate`), kept in `frames` along with the others."""
        end = time.monotonic() + timeout
        while True:
            remaining = end - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"no matching frame within {timeout} s; got {self.frames[-5:]}")
            frame = json.loads(await asyncio.wait_for(self.connection.recv(), remaining))
            self.frames.append(frame)
            if predicate is None or predicate(frame):
                return frame

    async def close(self) -> None:
        await self.connection.close()


def origin_of(url: str) -> str:
    """The origin of the site a socket URL belongs to (the origin check compares all of it)."""
    return url.split("/ws/")[0].replace("ws://", "http://").replace("wss://", "https://")


async def open_socket(url: str, headers: dict[str, str] | None = None, origin: str | None = None) -> Socket:
    origin = origin or origin_of(url)
    connection_ = await connect(url, additional_headers=headers or {}, origin=origin)  # type: ignore[arg-type]
    return Socket(connection_)


def db(function: Any) -> Any:
    """Run ORM code from a test's event loop; the worker thread's connection is closed after."""
    from asgiref.sync import sync_to_async
    from django.db import connections

    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        finally:
            connections.close_all()

    return sync_to_async(call)


def is_event(frame: dict[str, Any], kind: str | None = None) -> bool:
    return (
        "v" in frame
        and frame.get("t") not in ("state", "ack", "presence", "pong", "error")
        and (kind is None or frame["t"] == kind)
    )
