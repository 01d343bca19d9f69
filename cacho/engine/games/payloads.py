"""Strict parsing of a client's JSON payload: unknown fields, missing fields and wrong JSON
types are `RuleError`s (`unknown-command-type`, `unknown-field`, `missing-field`,
`invalid-field`), shared by every game's `parse_command` and `parse_entry`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cacho.engine.errors import RuleError

if TYPE_CHECKING:
    from cacho.engine.games.protocol import Game


def is_int(value: object) -> bool:
    return type(value) is int


def check_fields(payload: Mapping[str, Any], required: Sequence[str], optional: Sequence[str] = ()) -> None:
    allowed = {"type", *required, *optional}
    unknown = sorted(set(payload) - allowed)
    if unknown:
        raise RuleError("unknown-field", f"unknown field(s) {unknown}")
    missing = [name for name in required if name not in payload]
    if missing:
        raise RuleError("missing-field", f"missing field(s) {missing}")


def int_field(payload: Mapping[str, Any], name: str) -> int:
    value = payload[name]
    if not is_int(value):
        raise RuleError("invalid-field", f"{name} must be an integer")
    result: int = value
    return result


def str_field(payload: Mapping[str, Any], name: str) -> str:
    value = payload[name]
    if not isinstance(value, str):
        raise RuleError("invalid-field", f"{name} must be a string")
    return value


def command_type(payload: Mapping[str, Any], known: Iterable[str]) -> str:
    kind = payload.get("type")
    if not isinstance(kind, str):
        raise RuleError("missing-field", "a command has a string 'type'")
    if kind not in known:
        raise RuleError("unknown-command-type", f"unknown command type {kind!r}")
    return kind


def seat_field(payload: Mapping[str, Any], seats: Sequence[str]) -> str:
    """The seat an entry names (`by`), one of the match's."""
    name = str_field(payload, "by")
    if name not in seats:
        raise RuleError("unknown-player", f"{name!r} is not seated in this match")
    return name


def dice_field(payload: Mapping[str, Any], name: str) -> tuple[int, ...]:
    value = payload[name]
    if not isinstance(value, list) or not all(is_int(face) for face in value):
        raise RuleError("invalid-field", f"{name} must be a list of dice")
    return tuple(value)


def known_strength(game: Game, strength: str) -> str:
    if strength not in game.bot_strengths:
        raise RuleError("unknown-bot-strength", f"{game.name} has no bot of strength {strength!r}")
    return strength


def not_physical() -> RuleError:
    return RuleError("not-physical", "this match is played online: the server rolls its dice")
