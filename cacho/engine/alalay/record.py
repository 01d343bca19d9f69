"""The Alalay match record (docs/match-record.md, "Cacho Alalay"): replay and write.

`replay_record(data)` raises RecordFormatError for a file that is not a record
(exit 2: unknown keys, wrong JSON types, unknown box names, a setup the rules
rule out) and returns `{"valid": False, "error": {"turn": i, ...}}` for a rule
broken at turn i (exit 1). The whole file's shape is checked before any turn is
replayed, so a malformed file is exit 2 even after a rule error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from cacho.engine.alalay.commands import Abandon, Command, Reroll, Score, Scratch, Throw, TimeOut, TurnDie
from cacho.engine.alalay.endings import LAST_STANDING
from cacho.engine.alalay.events import (
    OPTION_NAMES,
    BoxScored,
    BoxScratched,
    DiceRerolled,
    DiceThrown,
    DieTurned,
    EntryAbandoned,
    Event,
    MatchEnded,
    MatchStarted,
    Options,
    TurnTimedOut,
)
from cacho.engine.alalay.record_rulings import ruling_item
from cacho.engine.alalay.rules import apply, initial_state, start_match
from cacho.engine.alalay.ruling_events import RULING_EVENTS, EntryDisqualified, MatchReopened, ResultAwarded
from cacho.engine.alalay.scorecard import (
    BOX_INDEX,
    BOXES,
    GRANDE_BOXES,
    NUMBER_BOXES,
    allowed_values,
)
from cacho.engine.alalay.state import State
from cacho.engine.errors import RecordFormatError, RuleError
from cacho.engine.record_header import FORMAT
from cacho.engine.rulings import Rule, parse_ruling
from cacho.engine.undo import without_undone

TOP_KEYS = frozenset({"format", "game", "ruleset", "options", "players", "setup", "turns"})
REQUIRED_KEYS = ("format", "game", "ruleset", "players", "turns")
TURN_KEYS = frozenset({"by", "throw", "reroll", "turn", "score", "scratch", "timeout", "abandon"})
RECORD_BOXES = frozenset({*NUMBER_BOXES, "straight", "full", "four", "grande"})


def _bad(code: str, message: str) -> NoReturn:
    raise RecordFormatError(code, message)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int_list(value: object, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(_is_int(v) for v in value):
        _bad("wrong-type", f"{where} must be a list of integers")
    return tuple(value)


def _object(value: object, where: str, keys: frozenset[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        _bad("wrong-type", f"{where} must be an object")
    unknown = sorted(set(value) - keys)
    if unknown:
        _bad("unknown-field", f"unknown field {unknown[0]!r} in {where}")
    return value


@dataclass(frozen=True)
class RecordTurn:
    """One checked turn entry of a record."""

    by: str
    throw: tuple[int, ...] | None = None
    keep: tuple[int, ...] | None = None  # None: no reroll
    rerolled: tuple[int, ...] = ()
    turn: tuple[int, ...] | None = None
    score: str | None = None
    scratch: str | None = None
    timeout: bool = False
    abandon: bool = False
    ruling: dict[str, Any] | None = None  # a referee's ruling item: nothing else is set
    reason: str = ""


def _true_flag(turn: dict[str, Any], key: str, where: str) -> bool:
    if key not in turn:
        return False
    if turn[key] is not True:
        _bad("invalid-value", f"{where}.{key} must be true")
    return True


def _parse_turn(value: object, index: int) -> RecordTurn:
    where = f"turns[{index}]"
    if isinstance(value, dict) and "ruling" in value:
        item = _object(value, where, frozenset({"ruling", "reason"}))
        if not isinstance(item["ruling"], dict):
            _bad("wrong-type", f"{where}.ruling must be an object")
        reason = item.get("reason", "")
        if not isinstance(reason, str):
            _bad("wrong-type", f"{where}.reason must be text")
        return RecordTurn("", ruling=item["ruling"], reason=reason)
    turn = _object(value, where, TURN_KEYS)
    if "by" not in turn:
        _bad("missing-field", f"{where} needs 'by'")
    by = turn["by"]
    if not isinstance(by, str):
        _bad("wrong-type", f"{where}.by must be a string")
    abandon = _true_flag(turn, "abandon", where)
    timeout = _true_flag(turn, "timeout", where)
    if abandon:
        if set(turn) != {"by", "abandon"}:
            _bad("invalid-turn", f"{where}: an abandonment has only 'by' and 'abandon'")
        return RecordTurn(by, abandon=True)
    if "throw" not in turn:
        _bad("missing-field", f"{where} needs 'throw' or 'abandon'")
    throw = _int_list(turn["throw"], f"{where}.throw")
    keep: tuple[int, ...] | None = None
    rerolled: tuple[int, ...] = ()
    if "reroll" in turn:
        reroll = _object(turn["reroll"], f"{where}.reroll", frozenset({"keep", "dice"}))
        keep = _int_list(reroll.get("keep", []), f"{where}.reroll.keep")
        rerolled = _int_list(reroll.get("dice", []), f"{where}.reroll.dice")
    turned = _int_list(turn["turn"], f"{where}.turn") if "turn" in turn else None
    boxes: dict[str, str] = {}
    for key in ("score", "scratch"):
        if key in turn:
            box = turn[key]
            if not isinstance(box, str):
                _bad("wrong-type", f"{where}.{key} must be a box name")
            if box not in RECORD_BOXES:
                _bad("unknown-box", f"{where}.{key}: unknown box {box!r}")
            boxes[key] = box
    if len(boxes) > 1:
        _bad("invalid-turn", f"{where}: 'score' and 'scratch' exclude each other")
    return RecordTurn(
        by, throw, keep, rerolled, turned, boxes.get("score"), boxes.get("scratch"), timeout=timeout
    )


def _parse_options(value: object) -> Options:
    options = _object(value, "options", frozenset(OPTION_NAMES))
    for name, flag in options.items():
        if not isinstance(flag, bool):
            _bad("invalid-option", f"option {name} must be true or false")
    return Options(**options)


def _parse_players(value: object) -> list[str]:
    if not isinstance(value, list) or not value:
        _bad("wrong-type", "players must be a non-empty list of names")
    if not all(isinstance(p, str) and p for p in value):
        _bad("wrong-type", "player names are non-empty strings")
    if len(set(value)) != len(value):
        _bad("duplicate-player", "player names are unique")
    return list(value)


def _parse_cards(value: object, players: list[str]) -> dict[str, dict[str, int | None]]:
    setup = _object(value, "setup", frozenset({"cards"}))
    cards = _object(setup.get("cards", {}), "setup.cards", frozenset(players))
    out: dict[str, dict[str, int | None]] = {}
    for name, card in cards.items():
        boxes = _object(card, f"setup.cards.{name}", frozenset(BOX_INDEX))
        parsed: dict[str, int | None] = {}
        for box, points in boxes.items():
            if points == "X":
                parsed[box] = 0
            elif not _is_int(points):
                _bad("wrong-type", f'setup.cards.{name}.{box} must be a number or "X"')
            elif points not in allowed_values(box):
                _bad("setup-contradicts-rules", f"setup.cards.{name}.{box} cannot hold {points}")
            else:
                parsed[box] = points
        out[name] = parsed
    return out


def parse_record(data: dict[str, Any]) -> tuple[MatchStarted, list[RecordTurn]]:
    """Check a record's shape (RecordFormatError) and build its opening event and turns."""
    _object(data, "the record", TOP_KEYS)
    for key in REQUIRED_KEYS:
        if key not in data:
            _bad("missing-field", f"the record needs {key!r}")
    if data["format"] != FORMAT:
        _bad("unknown-format", f"format must be {FORMAT!r}")
    if data["game"] != "alalay" or data["ruleset"] != "alalay":
        _bad("ruleset-game-mismatch", "an Alalay record has game and ruleset 'alalay'")
    options = _parse_options(data.get("options", {}))
    players = _parse_players(data["players"])
    cards = _parse_cards(data.get("setup", {}), players)
    if not isinstance(data["turns"], list):
        _bad("wrong-type", "turns must be a list")
    turns = [_parse_turn(turn, i) for i, turn in enumerate(data["turns"])]
    try:
        (started,) = start_match(players, options, 0, cards)
    except RuleError as exc:
        raise RecordFormatError("setup-contradicts-rules", exc.message) from exc
    assert isinstance(started, MatchStarted)
    return started, turns


def _winner(state: State) -> str | list[str] | None:
    if not state.winners:
        return None
    if len(state.winners) > 1:
        return list(state.winners)
    return state.winners[0]


def outcome(state: State) -> dict[str, Any]:
    """The match-level part of a replay's output."""
    replayed: dict[str, Any] = {
        "totals": {entry.name: total for entry, total in zip(state.entries, state.totals, strict=False)},
        "finished": state.over,
        "winner": _winner(state),
        "win_reason": state.win_reason,
        "to_act": None if state.paused is not None else state.to_act,
    }
    if state.paused is not None:
        replayed["paused"] = {"reason": state.paused}
    if state.awarded is not None:
        replayed["placements"] = dict(zip([e.name for e in state.entries], state.awarded, strict=True))
    if state.time is not None:
        decided = state.win_reason == "at-time"
        replayed["time_called"] = {"policy": state.time.policy, "decided_at_time": decided}
    return replayed


def _invalid(index: int, error: RuleError) -> dict[str, Any]:
    return {"valid": False, "error": {"turn": index, "code": error.code, "message": error.message}}


def _after_end(entry: RecordTurn, stage: str) -> None:
    later = {
        "throw": entry.keep is not None or bool(entry.turn) or entry.score or entry.scratch,
        "reroll": bool(entry.turn) or entry.score or entry.scratch,
    }[stage]
    if later:
        raise RuleError("match-over", "la dormida ended the match: nothing follows in this turn")


def replay_turns(state: State, turns: Sequence[RecordTurn]) -> dict[str, Any]:
    listed: list[dict[str, Any]] = []
    unfinished = False
    for index, entry in enumerate(turns):
        try:
            if entry.ruling is not None:
                state, _ = apply(state, ruling_of(entry))
                listed.append({"ruling": entry.ruling["kind"], "reason": entry.reason})
                # a ruling that ends the turn in play (award, reopen, disqualify) ends its record too
                unfinished = unfinished and state.turn is not None and state.turn.phase != "await"
                continue
            if state.over:
                raise RuleError("match-over", "the match is over")
            if entry.abandon:
                state, _ = apply(state, Abandon(entry.by))
                listed.append({"by": entry.by, "abandon": True})
                # one that leaves the last entry standing ends the turn in play, and its record
                unfinished = unfinished and state.turn is not None and state.turn.phase != "await"
                continue
            if unfinished:
                raise RuleError("turn-unfinished", "the previous turn stopped before filling a box")
            assert entry.throw is not None
            commands: list[Command] = [TimeOut(entry.by)] if entry.timeout else []
            commands.append(Throw(entry.by, entry.throw))
            for command in commands:
                state, _ = apply(state, command)
            shown: dict[str, Any] = {"by": entry.by}
            if state.over:
                _after_end(entry, "throw")
            elif entry.keep is not None:
                state, _ = apply(state, Reroll(entry.by, entry.keep, entry.rerolled))
                if state.over:
                    _after_end(entry, "reroll")
            if state.over:  # la dormida
                shown.update(dice=list(_last_dice(entry)), box=None, points=None, de_mano=True, dormida=True)
                listed.append(shown)
                continue
            for position in entry.turn or ():
                state, _ = apply(state, TurnDie(entry.by, position))
            assert state.turn is not None
            dice = state.turn.dice
            if entry.score is not None or entry.scratch is not None:
                box = entry.score if entry.score is not None else entry.scratch
                assert box is not None
                de_mano = state.turn.de_mano
                command = Score(entry.by, box) if entry.score is not None else Scratch(entry.by, box)
                state, events = apply(state, command)
                filled = events[0]
                assert isinstance(filled, (BoxScored, BoxScratched))
                shown.update(dice=list(dice), box=filled.box)
                if isinstance(filled, BoxScored):
                    shown.update(points=filled.points, de_mano=filled.de_mano)
                else:
                    shown.update(points=0, de_mano=de_mano, scratched=True)
                if entry.timeout:
                    shown["timeout"] = True
                listed.append(shown)
            else:
                unfinished = True
        except RuleError as exc:
            return _invalid(index, exc)
    return {"valid": True, "turns": listed, **outcome(state)}


def ruling_of(entry: RecordTurn) -> Rule:
    assert entry.ruling is not None
    return parse_ruling(entry.ruling, entry.reason, None)


def _last_dice(entry: RecordTurn) -> tuple[int, ...]:
    if entry.keep is not None:
        return entry.keep + entry.rerolled
    assert entry.throw is not None
    return entry.throw


def replay_record(data: dict[str, Any]) -> dict[str, Any]:
    """Replay an Alalay record: the output of docs/match-record.md."""
    started, turns = parse_record(data)
    return replay_turns(initial_state(started), turns)


# ---------------------------------------------------------------- writing


def _record_box(box: str) -> str:
    return "grande" if box in GRANDE_BOXES else box


def write_record(events: Sequence[Event]) -> dict[str, Any]:
    """A match's events as a `cacho-match/1` record that replays to the same outcome (an
    undone entry left out).

    Seats are listed from the entry that threw first (the record's order rule);
    team members are not part of the format and are left out. A turn abandoned
    by its own player is written as the abandonment alone; an abandonment by
    another entry during a turn is written before that turn (it changes nothing
    in it), unless it leaves that turn's entry the last standing: then the turn,
    as far as it went, comes first.
    """
    events = without_undone(events, lambda event: isinstance(event, MatchEnded))
    if not events or not isinstance(events[0], MatchStarted):
        raise ValueError("a match's events begin with match_started")
    start = events[0]
    names = [entry.name for entry in start.entries]
    players = names[start.first :] + names[: start.first]
    cards: dict[str, dict[str, int | str]] = {}
    for name, card in zip(names, start.cards, strict=False):
        filled = {
            box: ("X" if value == 0 else value)
            for box, value in zip(BOXES, card, strict=False)
            if value is not None
        }
        if filled:
            cards[name] = filled
    turns: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    held: list[dict[str, Any]] = []  # rulings during a turn that goes on: written before it
    for event in events[1:]:
        if isinstance(event, RULING_EVENTS):
            item = ruling_item(event)
            ends_turn = isinstance(event, ResultAwarded | MatchReopened) or (
                isinstance(event, EntryDisqualified) and current is not None and current["by"] == event.entry
            )
            if current is None:
                turns.append(item)
            elif ends_turn:
                if "throw" in current:
                    turns.append(_ordered(current))
                turns += [*held, item]
                held, current = [], None
            else:
                held.append(item)
            continue
        if isinstance(event, TurnTimedOut):
            current = current or {"by": event.entry}
            current["timeout"] = True
        elif isinstance(event, DiceThrown):
            current = current or {"by": event.entry}
            current["throw"] = list(event.dice)
        elif isinstance(event, DiceRerolled):
            assert current is not None
            current["reroll"] = {"keep": list(event.keep), "dice": list(event.dice)}
        elif isinstance(event, DieTurned):
            assert current is not None
            current.setdefault("turn", []).append(event.position)
        elif isinstance(event, (BoxScored, BoxScratched)):
            assert current is not None
            current["score" if isinstance(event, BoxScored) else "scratch"] = _record_box(event.box)
            turns += [*held, _ordered(current)]
            held, current = [], None
        elif isinstance(event, EntryAbandoned):
            if current is not None and current["by"] == event.entry:
                turns += held
                held, current = [], None
            left = {"by": event.entry, "abandon": True}
            if current is None:
                turns.append(left)
            else:
                held.append(left)
        elif isinstance(event, MatchEnded):
            partial = [_ordered(current)] if current is not None and "throw" in current else []
            if event.reason == LAST_STANDING:
                # The others left during this turn: it stops where it was, then they leave.
                turns += [*partial, *held]
            else:
                turns += [*held, *partial]  # la dormida ends its own turn
            held, current = [], None
    if current is not None and "throw" in current:
        turns.append(_ordered(current))
    turns += held  # the record stops in the middle of a turn: its rulings came after its throws
    return {
        "format": FORMAT,
        "game": "alalay",
        "ruleset": "alalay",
        "options": {name: getattr(start.options, name) for name in OPTION_NAMES},
        "players": players,
        "setup": {"cards": cards} if cards else {},
        "turns": turns,
    }


def _ordered(turn: dict[str, Any]) -> dict[str, Any]:
    order = ("by", "throw", "reroll", "turn", "score", "scratch", "timeout")
    return {key: turn[key] for key in order if key in turn}
