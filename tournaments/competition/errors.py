"""The competition core's one error type: a stable code and a human message."""

from __future__ import annotations


class CompetitionError(ValueError):
    """A request the competition rules refuse. `code` is stable (API error codes); `field`,
    where one is to blame, the path of the request field to change (`stages[0].params.advance`)."""

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.field = field
