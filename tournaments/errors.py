"""The write path's one error type: a stable code, a translated message and an HTTP status."""

from __future__ import annotations


class TournamentError(Exception):
    """A refused request. `code` is stable (API error codes); `status` the HTTP status;
    `field`, when one field of the request (or of the stored setup) is to blame, its path."""

    def __init__(self, code: str, message: str, status: int = 400, *, field: str | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = str(message)
        self.status = status
        self.field = field


class Forbidden(TournamentError):
    def __init__(self, message: str) -> None:
        super().__init__("forbidden", message, status=403)


class NotFound(TournamentError):
    def __init__(self, message: str) -> None:
        super().__init__("not-found", message, status=404)
