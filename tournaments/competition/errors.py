"""The competition core's one error type: a stable code and a human message."""

from __future__ import annotations


class CompetitionError(ValueError):
    """A request the competition rules refuse. `code` is stable (API error codes)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
