"""A redis-server of a test's own, on a free port, that the test may restart empty or stop:
the shared Redis of the suite is never restarted."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

from tests import needs
from tests.test_foundation.helpers import POLL, free_port


class OwnRedis:
    def __init__(self, data_dir: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            needs.missing("redis-server is not installed")
        self.binary = binary
        self.port = free_port()
        self.data_dir = data_dir
        self.process: subprocess.Popen[bytes] | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        args = [
            self.binary,
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ]
        self.process = subprocess.Popen(
            [*args, "--dir", str(self.data_dir)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 10
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 0.5):
                return
            if time.monotonic() > deadline:
                raise AssertionError("redis-server did not listen within 10 s")
            time.sleep(POLL)

    def stop(self) -> None:
        """Gone at once, with everything it held (no snapshot is written or read)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None

    def restart(self) -> None:
        """Back empty on the same port, as a restart without persistence brings it."""
        self.stop()
        self.start()


@contextlib.contextmanager
def own_redis(data_dir: Path) -> Iterator[OwnRedis]:
    server = OwnRedis(data_dir)
    server.start()
    try:
        yield server
    finally:
        server.stop()
