"""Referee rulings: the command both games decide, and its strict parsing.

A ruling is a JSON object `{"kind": ..., ...params}` (docs/engine.md, "Rulings"). Each
game decides the kinds that fit it; a kind that does not fit the game, a malformed
ruling and a ruling the match's state rules out are `RuleError`s whose codes start
`ruling-`. Rulings are decided by the games' ordinary `decide`, so they reach the log
through the same path as a player's command.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cacho.engine.errors import RuleError
from cacho.engine.json_shapes import frozen, plain

# kind -> (required params, optional params)
PARAMS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "pause": ((), ()),
    "resume": ((), ()),
    "uphold": ((), ()),
    "void-round": (("round",), ()),
    "adjust-dice": (("player", "delta"), ()),
    "correct-turn": (("turn", "box"), ("points", "scratch")),
    "award-result": (("placements",), ()),
    "penalty": (("seat",), ("dice", "points")),
    "disqualify": (("seat",), ()),
    "reopen": ((), ("round", "turn")),
    # a director's decision, judged like a referee's (docs/rules.md §9.1)
    "call-time": ((), ("policy", "round_under_way")),
}
KINDS = tuple(PARAMS)
# The kinds a referee commits as a dispute's ruling: pause and resume are the table's own
# buttons, and calling time is a director's.
REFEREE_KINDS = tuple(kind for kind in KINDS if kind not in ("pause", "resume", "call-time"))
# Rulings that can change who won or how the seats placed.
RESULT_KINDS = frozenset({"adjust-dice", "correct-turn", "award-result", "penalty", "disqualify", "reopen"})


@dataclass(frozen=True, slots=True)
class Rule:
    """A referee's ruling, parsed: its kind, its params (sorted pairs), and why.

    `at` is when the service received it (None in a record's replay), as for a player's
    command: a resumed turn's fresh deadline runs from it."""

    kind: str
    params: tuple[tuple[str, Any], ...]
    reason: str = ""
    at: int | None = None

    def get(self, name: str, default: Any = None) -> Any:
        return dict(self.params).get(name, default)

    def has(self, name: str) -> bool:
        return any(key == name for key, _ in self.params)


def parse_ruling(payload: Mapping[str, Any], reason: str = "", at: int | None = None) -> Rule:
    """The `Rule` of a ruling's JSON, strictly: `ruling-kind-unknown`, `ruling-field-unknown`,
    `ruling-field-missing`, `ruling-field-invalid` (types only; each game judges values)."""
    if not isinstance(payload, Mapping):
        raise RuleError("ruling-field-invalid", "a ruling is a JSON object")
    kind = payload.get("kind")
    if not isinstance(kind, str) or kind not in PARAMS:
        raise RuleError("ruling-kind-unknown", f"unknown ruling kind {kind!r}")
    required, optional = PARAMS[kind]
    unknown = sorted(set(payload) - {"kind", *required, *optional})
    if unknown:
        raise RuleError("ruling-field-unknown", f"{kind} takes no field(s) {unknown}")
    missing = [name for name in required if name not in payload]
    if missing:
        raise RuleError("ruling-field-missing", f"{kind} needs field(s) {missing}")
    if not isinstance(reason, str):
        raise RuleError("ruling-field-invalid", "the reason is text")
    params: list[tuple[str, Any]] = []
    for name in sorted(set(payload) - {"kind"}):
        params.append((name, _checked(name, payload[name])))
    return Rule(kind, tuple(params), reason, at)


def _is_int(value: object) -> bool:
    return type(value) is int


def _checked(name: str, value: Any) -> Any:
    if name in ("round", "turn", "delta", "dice", "points"):
        if not _is_int(value):
            raise RuleError("ruling-field-invalid", f"{name} must be a whole number")
        return value
    if name in ("player", "seat", "box", "policy"):
        if not isinstance(value, str):
            raise RuleError("ruling-field-invalid", f"{name} must be a name")
        return value
    if name == "round_under_way":
        if not isinstance(value, bool):
            raise RuleError("ruling-field-invalid", "round_under_way must be true or false")
        return value
    if name == "scratch":
        if value is not True:
            raise RuleError("ruling-field-invalid", "scratch can only be true")
        return value
    # placements: {seat name: place}
    if not isinstance(value, Mapping) or not all(
        isinstance(seat, str) and _is_int(place) for seat, place in value.items()
    ):
        raise RuleError("ruling-field-invalid", "placements map seat names to places")
    return tuple(sorted(value.items()))


def not_in_game(rule: Rule, game: str) -> RuleError:
    return RuleError("ruling-not-in-game", f"{rule.kind} is not a ruling of {game}")


def check_placements(rule: Rule, seats: tuple[str, ...]) -> tuple[int, ...]:
    """The places of an award-result, by seat: every seat exactly once, 1..n, someone first."""
    given: dict[str, int] = dict(rule.get("placements"))
    unknown = sorted(set(given) - set(seats))
    if unknown:
        raise RuleError("ruling-seat-unknown", f"{unknown[0]!r} is not a seat of this match")
    if set(given) != set(seats):
        raise RuleError("ruling-placements-incomplete", "award-result places every seat")
    places = tuple(given[seat] for seat in seats)
    if any(not 1 <= place <= len(seats) for place in places) or 1 not in places:
        raise RuleError("ruling-placement-invalid", f"places run from 1 to {len(seats)}, 1 given")
    return places


def seat_of(seats: tuple[str, ...], name: str) -> int:
    if name not in seats:
        raise RuleError("ruling-seat-unknown", f"{name!r} is not a seat of this match")
    return seats.index(name)


# ------------------------------------------------------------- (de)serialisation
# The rulings both games write alike in a record: by their event's type.
_COMMON_KINDS = {"match_paused": "pause", "match_resumed": "resume", "ruling_upheld": "uphold"}


def common_ruling(event: Any) -> dict[str, Any] | None:
    """The record's ruling for a pause, a resume or an uphold (None for a game's own)."""
    kind = _COMMON_KINDS.get(getattr(event, "TYPE", ""))
    return None if kind is None else {"kind": kind}


def check_pausable(over: bool, paused: str | None) -> None:
    """A referee pauses a match that is on and not paused yet."""
    if over:
        raise RuleError("ruling-match-over", "the match is over")
    if paused is not None:
        raise RuleError("ruling-already-paused", "the match is paused already")


def check_resumable(paused: str | None) -> None:
    if paused is None:
        raise RuleError("ruling-not-paused", "the match is not paused")


# Ruling events are flat dataclasses of plain values (tuples become lists).


def ruling_event_to_dict(event: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": event.TYPE}
    for field in dataclasses.fields(event):
        value = getattr(event, field.name)
        out[field.name] = plain(value)
    return out


def ruling_event_from_dict(cls: type, data: Mapping[str, Any]) -> Any:
    names = {field.name for field in dataclasses.fields(cls)}
    unknown = set(data) - names - {"type"}
    if unknown:
        raise ValueError(f"{data.get('type')}: unknown fields {sorted(unknown)}")
    return cls(**{name: frozen(value) for name, value in data.items() if name != "type"})
