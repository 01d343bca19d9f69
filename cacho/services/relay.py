"""The notice relay: one process per host writes the notices of all its server processes
to Redis, a batch at a time (`manage.py notice_relay`).

Every committed move is a notice, and a notice written by the committing process is one
Redis command that wakes Redis: at four busy server processes on two cores that was
~50 µs of Redis's CPU and ~60 µs of the writer's a move, about a seventh of the machine's
CPU per command (docs/benchmarks.md, "stop 14"). Batching inside one process does not
help there: each process commits a move every millisecond or two, so a window short
enough for live play holds one notice. Across processes it does.

A server process keeps one connection to the Unix socket named by `CACHO_NOTICE_RELAY`
(SOCK_SEQPACKET: each notice one message, its group and the serialized message with
`NOTICE_SEPARATOR` between them): a local send that wakes nobody while the relay is busy,
and never blocks (`MSG_DONTWAIT`). The relay sleeps until a message arrives, waits
`window` (1 ms) for the others of that moment, and writes all of them to Redis in one
socket write, through the same packing and script as `cacho.services.notices`; the hubs
read them unchanged.

Nothing is lost by the relay being away: a sender whose message is refused (no relay, a
full buffer, a notice too large) writes that notice to Redis itself and does so for a
second before it tries the relay again. Delivery stays at most once, as before: notices
carry versions, and a client that sees a gap catches up from the log.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import select
import socket
import stat
import subprocess
import threading
import time
from typing import Any, TextIO

from cacho.services.notices import NOTICE_SEPARATOR, RELAY_DATAGRAM_MAX, Notice, _Link

logger = logging.getLogger(__name__)

WINDOW = 0.001  # how long the first notice of a batch waits for the others
READ_EVERY = 256  # Redis's replies read once this many are outstanding (or when idle)
BATCH_MAX = 1024  # datagrams written to Redis in one write
IDLE = 0.5  # seconds without a datagram before the outstanding replies are read


class RelayBusy(Exception):
    """Another relay serves this socket path."""


class NoticeRelay:
    """Receives notices on a Unix datagram socket and writes them to the layer's Redis."""

    BACKOFF = 1.0
    TIMEOUT = 0.5

    def __init__(self, path: str, layer: Any, window: float = WINDOW) -> None:
        self.path = path
        self.layer = layer
        self.window = window
        self.relayed = 0  # notices written to Redis
        self.dropped = 0  # notices lost to a Redis outage or a malformed datagram
        self._stop = threading.Event()
        self._socket: socket.socket | None = None  # listening
        self._senders: list[socket.socket] = []  # one connection per server process
        self._lock_file: TextIO | None = None
        self._inode: int | None = None
        self._link: _Link | None = None
        self._down_until = 0.0
        self._buffer = bytearray(RELAY_DATAGRAM_MAX + 1)

    @property
    def bound(self) -> bool:
        return self._socket is not None

    def bind(self) -> None:
        """Take the socket path (a stale socket file of a dead relay is replaced).
        Raises RelayBusy if a live relay holds it."""
        lock = open(f"{self.path}.lock", "a")  # noqa: SIM115  # held for the relay's life
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.close()
            raise RelayBusy(f"another notice relay serves {self.path}") from None
        self._lock_file = lock
        with contextlib.suppress(FileNotFoundError):
            if stat.S_ISSOCK(os.lstat(self.path).st_mode):
                os.unlink(self.path)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        sock.bind(self.path)
        sock.listen(128)
        sock.setblocking(False)
        self._socket = sock
        self._inode = os.stat(self.path).st_ino

    def serve(self) -> None:
        """Relay until `stop`; then read the last replies and give the path back."""
        if not self.bound:
            self.bind()
        assert self._socket is not None
        try:
            while not self._stop.is_set():
                ready, _, _ = select.select([self._socket, *self._senders], [], [], IDLE)
                if not ready:
                    self._settle()
                    continue
                if self._socket in ready:
                    self._accept()
                    if len(ready) == 1:
                        continue
                time.sleep(self.window)  # the other processes' notices of this moment
                while self.relay_batch() == BATCH_MAX:
                    pass
        finally:
            self._settle()
            self.close()

    def stop(self) -> None:
        self._stop.set()

    def _accept(self) -> None:
        assert self._socket is not None
        while True:
            try:
                connection, _ = self._socket.accept()
            except BlockingIOError:
                return
            connection.setblocking(False)
            self._senders.append(connection)

    def relay_batch(self) -> int:
        """Write what has arrived (up to BATCH_MAX notices) in one Redis write."""
        notices: list[Notice] = []
        view = memoryview(self._buffer)
        for connection in list(self._senders):
            while len(notices) < BATCH_MAX:
                try:
                    size = connection.recv_into(self._buffer)
                except BlockingIOError:
                    break
                except OSError:
                    size = 0
                if size == 0:  # the server process closed it (or died)
                    self._senders.remove(connection)
                    connection.close()
                    break
                group, separator, body = bytes(view[:size]).partition(NOTICE_SEPARATOR)
                if not separator or not group or size > RELAY_DATAGRAM_MAX:
                    self.dropped += 1
                    logger.warning("a malformed notice (%d bytes) was dropped", size)
                    continue
                notices.append((group.decode(), body, None))
        if notices:
            self._write(notices)
        return len(notices)

    def _write(self, notices: list[Notice]) -> None:
        if time.monotonic() < self._down_until:
            self.dropped += len(notices)
            return
        try:
            if self._link is None:
                self._link = _Link(self.layer, self.TIMEOUT, READ_EVERY)
            self._link.send_serialized(notices)
            self.relayed += len(notices)
        except Exception:
            self.dropped += len(notices)
            self._down_until = time.monotonic() + self.BACKOFF
            self._drop_link()
            logger.warning(
                "%d notices dropped, and any in the next %.0f s: Redis is unreachable",
                len(notices),
                self.BACKOFF,
                exc_info=True,
            )

    def _settle(self) -> None:
        if self._link is None:
            return
        try:
            self._link.read_replies()
        except Exception:
            logger.warning("notice replies lost", exc_info=True)
            self._drop_link()

    def _drop_link(self) -> None:
        if self._link is not None:
            with contextlib.suppress(Exception):
                self._link.connection.disconnect()
            self._link = None

    def close(self) -> None:
        for connection in self._senders:
            connection.close()
        self._senders = []
        if self._socket is not None:
            self._socket.close()
            self._socket = None
            with contextlib.suppress(FileNotFoundError):
                if os.stat(self.path).st_ino == self._inode:  # ours, not a successor's
                    os.unlink(self.path)
        self._drop_link()
        if self._lock_file is not None:
            self._lock_file.close()
            self._lock_file = None


def wait_until_bound(path: str, process: subprocess.Popen[Any], timeout: float = 30.0) -> None:
    """Return once the relay started as `process` has bound `path` (for whatever starts
    one and its servers in order: benches, tests). RuntimeError if it exits first or the
    time runs out."""
    deadline = time.monotonic() + timeout
    while not os.path.exists(path):
        if process.poll() is not None:
            raise RuntimeError(f"the notice relay exited ({process.returncode}) before serving {path}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"the notice relay did not serve {path} within {timeout:g} s")
        time.sleep(0.05)
