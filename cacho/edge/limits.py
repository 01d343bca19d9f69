"""Rate limits: how often one client may do one thing (`CACHO_RATES`, "N/period").

`hit(scope, ident)` counts one more for `ident` (a user id, an address, a user name) in
`scope` and answers None (allowed) or the seconds until the window ends (refused). The
count is a fixed window shared by every server process through Redis (one INCR and
EXPIRE round trip), or kept in the process when there is no Redis (embedded mode).
A Redis that does not answer lets the request through (logged): a limit protects the
service, it must not become the reason it fails.

`hit_leased` counts a scope that one process meets over and over (a player's moves: one
round trip to Redis each cost about a tenth of a move's CPU) by leases: the process takes
a twentieth of the limit from the shared count at once and spends it without asking
again. No window ever allows more than the limit across processes; a process holding
tokens it has not spent may make another refuse that many early (for 600 a minute, up to
29 per other process). A limit under 40 is counted one by one, exactly.

`Bucket` is a token bucket kept by one socket for its own frames (no shared state).
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings

logger = logging.getLogger(__name__)

PERIODS = {
    "s": 1,
    "sec": 1,
    "second": 1,
    "m": 60,
    "min": 60,
    "minute": 60,
    "h": 3600,
    "hour": 3600,
    "d": 86400,
}


@dataclass(frozen=True)
class Rate:
    count: int
    seconds: int

    @classmethod
    def parse(cls, text: str) -> Rate:
        """ "20/min", "5/15min", "10/s" ."""
        count, _, period = text.partition("/")
        digits = "".join(ch for ch in period if ch.isdigit())
        unit = period[len(digits) :].strip().lower()
        if unit not in PERIODS or not count.strip().isdigit():
            raise ValueError(f"not a rate: {text!r} (use N/s, N/min, N/hour, N/day, e.g. 5/15min)")
        return cls(int(count), int(digits or 1) * PERIODS[unit])


def rate(scope: str) -> Rate | None:
    text = settings.CACHO_RATES.get(scope)
    return _parsed(text) if text else None


@functools.lru_cache(maxsize=64)
def _parsed(text: str) -> Rate:
    return Rate.parse(text)


@dataclass(frozen=True)
class Window:
    """The fixed window `now` falls in, for one client in one scope."""

    limit: Rate
    key: str  # its count's name
    ends_in: float  # seconds from now


def _window(scope: str, ident: Any, now: float | None) -> Window | None:
    limit = rate(scope)
    if limit is None:
        return None
    now = time.time() if now is None else now
    number = int(now // limit.seconds)
    key = f"{settings.CACHO_RATES_PREFIX}:{scope}:{ident}:{number}"
    return Window(limit, key, (number + 1) * limit.seconds - now)


def hit(scope: str, ident: Any, now: float | None = None) -> float | None:
    window = _window(scope, ident, now)
    if window is None:
        return None
    count = _COUNTER.incr(window.key, window.limit.seconds + 1)
    return None if count is None or count <= window.limit.count else window.ends_in


LEASE_SHARE = 20  # a lease is this fraction of the limit


def hit_leased(scope: str, ident: Any, now: float | None = None) -> float | None:
    """As `hit`, taking the shared count a lease at a time (the module's docstring)."""
    window = _window(scope, ident, now)
    if window is None:
        return None
    limit = window.limit
    allowed = _COUNTER.take(window.key, limit.seconds + 1, max(1, limit.count // LEASE_SHARE), limit.count)
    return None if allowed is None or allowed else window.ends_in


def peek(scope: str, ident: Any, now: float | None = None) -> float | None:
    """As `hit` without counting: refused already (the seconds left) or not."""
    window = _window(scope, ident, now)
    if window is None:
        return None
    count = _COUNTER.get(window.key)
    return None if count is None or count < window.limit.count else window.ends_in


class Counter:
    """Redis when the project has one, else a dictionary of this process; and the tokens
    of the leases this process holds (`take`)."""

    MAX_LEASES = 10_000

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._local: dict[str, tuple[int, float]] = {}
        self._leases: dict[str, int] = {}
        self._client: Any = None
        self.used = False  # counted anything since the last clear (tests clear after)

    def _redis(self) -> Any:
        url = getattr(settings, "CACHO_RATES_REDIS", None)
        if not url:
            return None
        if self._client is None:
            import redis

            self._client = redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)
        return self._client

    def incr(self, key: str, ttl: int) -> int | None:
        self.used = True
        client = self._redis()
        if client is None:
            return self._incr_local(key, ttl)
        try:
            pipe = client.pipeline(transaction=False)
            pipe.incr(key)
            pipe.expire(key, ttl, nx=True)
            count, _ = pipe.execute()
        except Exception:  # fail open: see the module's docstring
            logger.warning("rate limit counter unavailable", exc_info=True)
            return None
        return int(count)

    def take(self, key: str, ttl: int, lease: int, most: int) -> bool | None:
        """One token of `key`'s window, whose count may reach `most`: from a lease this
        process holds, else from a new lease of up to `lease` tokens taken from the shared
        count. False: none is left; None: the count is unavailable (let through)."""
        self.used = True
        with self._lock:
            left = self._leases.get(key, 0)
            if left:
                self._leases[key] = left - 1
                return True
        client = self._redis()
        if client is None:  # one process counts everything: no lease to take
            return self._incr_local(key, ttl) <= most
        try:
            pipe = client.pipeline(transaction=False)
            pipe.incrby(key, lease)
            pipe.expire(key, ttl, nx=True)
            total, _ = pipe.execute()
        except Exception:  # fail open: see the module's docstring
            logger.warning("rate limit counter unavailable", exc_info=True)
            return None
        granted = min(lease, most - (int(total) - lease))  # what the count had left of the lease
        if granted <= 0:
            return False
        with self._lock:
            if len(self._leases) >= self.MAX_LEASES:  # past windows' leftovers: dropped, never spent
                self._leases.clear()
            self._leases[key] = self._leases.get(key, 0) + granted - 1
        return True

    def get(self, key: str) -> int | None:
        client = self._redis()
        if client is None:
            with self._lock:
                found = self._local.get(key)
            return found[0] if found and found[1] > time.monotonic() else None
        try:
            value = client.get(key)
        except Exception:
            logger.warning("rate limit counter unavailable", exc_info=True)
            return None
        return int(value) if value is not None else None

    def _incr_local(self, key: str, ttl: int) -> int:
        moment = time.monotonic()
        with self._lock:
            if len(self._local) > 10_000:  # old windows go
                self._local = {k: v for k, v in self._local.items() if v[1] > moment}
            count, expires = self._local.get(key, (0, moment + ttl))
            if expires <= moment:
                count, expires = 0, moment + ttl
            self._local[key] = (count + 1, expires)
            return count + 1

    def clear(self) -> None:
        """Forget every count (tests)."""
        self.used = False
        with self._lock:
            self._local.clear()
            self._leases.clear()
        client = self._redis()
        if client is not None:
            for key in client.scan_iter(f"{settings.CACHO_RATES_PREFIX}:*"):
                client.delete(key)


_COUNTER = Counter()
clear = _COUNTER.clear


def used() -> bool:
    return _COUNTER.used


class Bucket:
    """A token bucket: `capacity` frames at once, refilled at `per_second` (one socket's)."""

    __slots__ = ("capacity", "per_second", "stamp", "tokens")

    def __init__(self, per_second: float, capacity: float) -> None:
        self.per_second, self.capacity = per_second, capacity
        self.tokens, self.stamp = capacity, time.monotonic()

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.per_second)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
