"""DRF throttles on `cacho.edge.limits`: the whole API per client, and commands per user.

A refused request is a 429 `rate-limited` with `retry_after` and a `Retry-After` header
(cacho.api.errors). Clients are told apart by user id once logged in, else by address
(`REMOTE_ADDR`, which uvicorn sets from the proxy's `X-Forwarded-For`; DRF's
`NUM_PROXIES` is 0 so that a client cannot name itself another address).
"""

from __future__ import annotations

from typing import Any

from rest_framework.throttling import BaseThrottle

from cacho.edge import limits


class ApiThrottle(BaseThrottle):
    """`api-user` per user, `api-anon` per address."""

    def allow_request(self, request: Any, view: Any) -> bool:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            self.seconds = limits.hit("api-user", user.pk)
        else:
            self.seconds = limits.hit("api-anon", self.get_ident(request))
        return self.seconds is None

    def wait(self) -> float | None:
        return self.seconds


class CommandThrottle(BaseThrottle):
    """`commands` per user: moves sent over the API (the socket counts in the same scope)."""

    def allow_request(self, request: Any, view: Any) -> bool:
        user = getattr(request, "user", None)
        ident = user.pk if user is not None and user.is_authenticated else self.get_ident(request)
        self.seconds = limits.hit_leased("commands", ident)
        return self.seconds is None

    def wait(self) -> float | None:
        return self.seconds
