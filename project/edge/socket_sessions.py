"""A websocket's Django session, as channels' `SessionMiddleware` gives it, without its
wrapper around `send`.

Channels' wrapper saves a modified session when an HTTP response starts, the one message
that can carry its cookie. A websocket never sends one: after the handshake a cookie can
no longer be set. Yet the wrapper stood in every frame's path and read the session twice
per frame (`modified`, `is_empty()` through a lazy object), for each socket of a watched
table. Here the session is made once per socket, from the cookie, and `send` is the
server's own. Nothing on a socket writes the session: the pages sign in and claim seats
over HTTP (`cacho.services.seat_holders`), and a socket only reads what they stored.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from channels.auth import AuthMiddleware
from channels.sessions import CookieMiddleware
from django.conf import settings


class SocketSessionMiddleware:
    """`scope["session"]` from the session cookie (`CookieMiddleware` above parses it)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        store = import_module(settings.SESSION_ENGINE).SessionStore  # once a socket, not a frame
        # The store reads its row lazily, on first use, in the thread that uses it.
        session = store(scope["cookies"].get(settings.SESSION_COOKIE_NAME))
        return await self.inner(dict(scope, session=session), receive, send)


def socket_auth_stack(inner: Any) -> Any:
    """Cookies, the session and the user (`scope["user"]`, channels' `AuthMiddleware`),
    for websocket routes."""
    return CookieMiddleware(SocketSessionMiddleware(AuthMiddleware(inner)))
