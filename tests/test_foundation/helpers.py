"""Run the project as a user would: subprocesses with a clean environment."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests import workers

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
BIN = Path(sys.executable).parent

# Everything project/config.py reads, so that a test controls it completely.
CONFIG_VARS = (
    "CACHO_ENV",
    "CACHO_DATA_DIR",
    "CACHO_DEMO_BOTS",
    "SECRET_KEY",
    "DJANGO_SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "DATABASE_URL",
    "REDIS_URL",
    "CACHO_REDIS_LAYER",
    "STATIC_ROOT",
    "SECURE_SSL_REDIRECT",
    "HSTS_SECONDS",
    "LOG_LEVEL",
    "DJANGO_SETTINGS_MODULE",
    # deploy: pooling, logs, metrics
    "CACHO_DB_PREPARED",
    "CACHO_DB_TRANSACTION_POOLING",
    "LOG_FORMAT",
    "PROMETHEUS_MULTIPROC_DIR",
    "CACHO_METRICS_TOKEN",
    "CACHO_METRICS_ALLOW",
    "CACHO_METRICS_PORT",
    "CACHO_WORKER_READY_FILE",
    "CACHO_DB_POOL_MIN",
    "CACHO_DB_POOL_MAX",
    "CACHO_DB_POOL_TIMEOUT",
    "CACHO_LIVE_FRAME_BURST",
    "CACHO_LIVE_FRAME_RATE",
    "CACHO_PROJECTION_HOLD",
    # mail and notices
    "EMAIL_URL",
    "SITE_URL",
    "VAPID_PUBLIC_KEY",
    "VAPID_PRIVATE_KEY",
    "VAPID_SUBJECT",
)

POLL = 0.01  # seconds between two looks at another process (a server starting, a log line)

PRODUCTION_SECRET = "k" * 10 + "-Zq8vN3wXyT5rLp0sBjH2dFgKmC7aUe9iOoWnRtYxVb4QlS6"


# Set by pytest to the test and phase running now: a process's environment that carried it
# would differ from test to test, and no server could be forked from the worker's parent
# (tests/live/server_forks.py), which compares environments.
PER_TEST_VARS = ("PYTEST_CURRENT_TEST",)
LEFT_OUT = frozenset(CONFIG_VARS + PER_TEST_VARS)


def clean_env(data_dir: Path, **overrides: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in LEFT_OUT}
    env["CACHO_DATA_DIR"] = str(data_dir)
    env["PYTHONUNBUFFERED"] = "1"
    env.update(overrides)
    return env


def manage(env: Mapping[str, str], *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PYTHON, "manage.py", *args],
        cwd=ROOT,
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def django_says(env: Mapping[str, str], code: str, *args: str) -> str:
    """The last line `code` prints in a Python process of its own with this environment and
    the project's settings module (`code` sets Django up: `django.setup()`, or an import of
    project.asgi)."""
    done = subprocess.run(
        [PYTHON, "-c", code, *args],
        cwd=ROOT,
        env=dict(env, DJANGO_SETTINGS_MODULE="project.settings"),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


def settings_of(env: Mapping[str, str], *names: str) -> dict[str, Any]:
    """The named Django settings as the process with this environment sees them."""
    code = (
        "import json, sys, django\n"
        "django.setup()\n"
        "from django.conf import settings\n"
        "print(json.dumps({n: getattr(settings, n, None) for n in sys.argv[1:]}, default=str))\n"
    )
    result: dict[str, Any] = json.loads(django_says(env, code, *names))
    return result


PORTS_PER_WORKER = 750  # 16 workers' ranges fit below the kernel's outgoing ports (32768)
_next_port = itertools.count(random.randrange(PORTS_PER_WORKER))


def free_port() -> int:
    """A port that nothing listens on, from this pytest-xdist worker's own range
    (tests/workers.py), taken in turn: two workers never pick the same one, nor does a
    worker pick one again soon after a server let it go."""
    first = 20_000 + workers.index() * PORTS_PER_WORKER
    for _ in range(PORTS_PER_WORKER):
        port = first + next(_next_port) % PORTS_PER_WORKER
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise AssertionError(f"no free port in {first}..{first + PORTS_PER_WORKER - 1}")


@dataclass
class Response:
    status: int
    body: bytes
    headers: dict[str, str]

    def json(self) -> Any:
        return json.loads(self.body)


def http_get(url: str, timeout: float = 15) -> Response:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return Response(response.status, response.read(), dict(response.headers))
    except urllib.error.HTTPError as error:
        return Response(error.code, error.read(), dict(error.headers))


class ForkedProcess:
    """A server forked by another process (tests/live/server_forks.py), which reaps it:
    the part of `subprocess.Popen` the tests use."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                os.kill(self.pid, 0)
            except ProcessLookupError:
                self.returncode = -1  # its parent has its status
        return self.returncode

    def send_signal(self, signal_number: int) -> None:
        if self.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal_number)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"pid {self.pid}", timeout or 0)
            time.sleep(POLL)
        return self.returncode  # type: ignore[return-value]


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes] | ForkedProcess
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")


class ServerForks:
    """tests/live/server_forks.py running with `env`: `fork(port, log)` starts a server
    from the project it loaded, as `serve` would with the same environment."""

    def __init__(self, env: Mapping[str, str], log_dir: Path) -> None:
        self.env = dict(env)
        self.log = log_dir / "server-forks.log"
        with self.log.open("wb") as errors:
            self.process = subprocess.Popen(
                [PYTHON, "-m", "tests.live.server_forks"],
                cwd=ROOT,
                env=self.env,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=errors,
                text=True,
            )

    def fork(self, port: int, log: Path) -> ForkedProcess:
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            self.process.stdin.write(json.dumps({"port": port, "log": str(log)}) + "\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            pass
        answer = self.process.stdout.readline()
        if not answer:
            raise AssertionError(f"the servers' parent exited:\n{self.log.read_text(errors='replace')}")
        return ForkedProcess(json.loads(answer)["pid"])

    def close(self) -> None:
        if self.process.stdin is not None:
            with contextlib.suppress(BrokenPipeError):
                self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)


@contextlib.contextmanager
def serve(
    env: Mapping[str, str], log_dir: Path, startup_timeout: float = 30, *, forks: ServerForks | None = None
) -> Iterator[Server]:
    """uvicorn project.asgi:application on a free port, forked by `forks` when given (its
    environment is then `env`); killed on exit."""
    port = free_port()
    log = log_dir / f"uvicorn-{port}.log"
    process: subprocess.Popen[bytes] | ForkedProcess
    if forks is not None:
        process = forks.fork(port, log)
    else:
        with log.open("wb") as sink:
            process = subprocess.Popen(
                [
                    PYTHON,
                    "-m",
                    "uvicorn",
                    "project.asgi:application",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(port),
                    "--lifespan",
                    "off",
                ],
                cwd=ROOT,
                env=dict(env),
                stdout=sink,
                stderr=subprocess.STDOUT,
            )
    server = Server(f"http://127.0.0.1:{port}", process, log)
    try:
        deadline = time.monotonic() + startup_timeout
        while True:
            if process.poll() is not None:
                raise AssertionError(f"uvicorn exited with {process.returncode}:\n{server.output()}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
            if time.monotonic() > deadline:
                raise AssertionError(f"uvicorn did not listen within {startup_timeout} s:\n{server.output()}")
            time.sleep(POLL)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
