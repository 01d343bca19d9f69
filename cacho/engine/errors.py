"""Errors raised by the engine, each with a stable kebab-case code."""

from __future__ import annotations


class RuleError(Exception):
    """A command or recorded action that the rules forbid.

    `code` is stable (clients and records compare it); `message` is for people.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.message!r})"


class RecordFormatError(Exception):
    """A file that is not a match record at all (exit status 2 of `replay`):
    bad JSON, unknown or missing fields, wrong types, unknown ruleset or option,
    or a setup that contradicts the rules."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
