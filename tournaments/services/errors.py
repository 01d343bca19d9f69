"""The write path's one error type: a stable code, a translated message and an HTTP status."""

from __future__ import annotations


class TournamentError(Exception):
    """A refused request. `code` is stable (API error codes); `status` the HTTP status."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = str(message)
        self.status = status


class Forbidden(TournamentError):
    def __init__(self, message: str) -> None:
        super().__init__("forbidden", message, status=403)


class NotFound(TournamentError):
    def __init__(self, message: str) -> None:
        super().__init__("not-found", message, status=404)
