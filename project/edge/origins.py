"""The websocket origin check: a socket opens only from a page of this site.

The handshake's `Origin` must be the socket's own origin — the same scheme (http for ws,
https for wss), host and port as the request it arrives on, with a host in
`ALLOWED_HOSTS` — or one of `CSRF_TRUSTED_ORIGINS`. Channels' host check compares the
host alone, so a page served by another program on another port of the same host could
open sockets with its visitors' cookies. A handshake without an Origin is refused too.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}


def normalised(origin: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin, the default port filled in; None if it is not one."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/"):
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


def own_origin(scope: dict[str, Any]) -> tuple[str, str, int] | None:
    """The origin a page of this site has, from the handshake's scheme and Host header."""
    host = _header(scope, b"host")
    if host is None:
        return None
    domain, _ = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    return normalised(f"{scheme}://{host}")


def allowed(scope: dict[str, Any]) -> bool:
    origin = _header(scope, b"origin")
    parsed = normalised(origin) if origin else None
    if parsed is None:
        return False
    if parsed == own_origin(scope):
        return True
    return parsed in {normalised(trusted) for trusted in settings.CSRF_TRUSTED_ORIGINS}


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin1"))
    return None


class SameOriginValidator:
    """ASGI middleware: refuses (403) a websocket handshake from another origin."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not allowed(scope):
            denier = WebsocketDenier()
            return await denier(scope, receive, send)
        return await self.application(scope, receive, send)
