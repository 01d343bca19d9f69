"""Match records of the bidding games (docs/match-record.md): read, replay, write.

Reading is two passes. The first checks the shape of the file (exit 2 of
`replay`: not a record); the second plays every round through `decide`, so a
record is judged by exactly the rules that judge a live match (exit 1).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from cacho.engine.bidding.at_time import placements as at_time_placements
from cacho.engine.bidding.commands import (
    Abandon,
    AnnouncePaso,
    AnnounceSalpicon,
    CallCalza,
    CallDudo,
    DenySalpicon,
    PlaceBid,
    PlayerCommand,
    RecordOutcome,
    StartRound,
    StateAtTime,
    TimeOut,
)
from cacho.engine.bidding.events import (
    BidMade,
    Event,
    MatchStarted,
    PasoAnnounced,
    PlayerAbandoned,
    RoundRecorded,
    RoundResolved,
    RoundStarted,
    SalpiconAnnounced,
)
from cacho.engine.bidding.evolve import evolve, initial_state
from cacho.engine.bidding.record_rulings import ruling_action, ruling_of_action
from cacho.engine.bidding.rules import OPTIONS
from cacho.engine.bidding.ruling_events import AT_TIME_FOLLOWERS, RULING_EVENTS, ResultAwarded
from cacho.engine.bidding.rulings import decide
from cacho.engine.bidding.setup import start_match
from cacho.engine.bidding.state import MatchState
from cacho.engine.errors import RecordFormatError, RuleError
from cacho.engine.record_header import FORMAT, check_header
from cacho.engine.undo import without_undone

TOP_KEYS = frozenset({"format", "game", "ruleset", "options", "players", "setup", "rulings", "rounds"})
SETUP_KEYS = frozenset({"dice", "starter", "mode", "initial_players", "calzo_disabled"})
ROUND_KEYS = frozenset({"dice", "direction", "actions"})
OUTCOME_ROUND_KEYS = frozenset({"outcome", "direction", "actions"})
OUTCOME_KEYS = frozenset({"by", "call", "loser", "exact", "against", "abandon"})
OUTCOME_CALLS = ("dudo", "calza", "paso", "salpicon")
ACTION_KINDS = ("bid", "call", "paso", "salpicon", "deny", "timeout", "abandon")
MODES = ("normal", "palifico", "obligado", "blind")


# --- pass 1: the shape of the file ------------------------------------------------------


def _fail(code: str, message: str) -> RecordFormatError:
    return RecordFormatError(code, message)


def _is_int(value: object) -> bool:
    return type(value) is int


def _check_keys(obj: object, allowed: frozenset[str], required: Iterable[str], where: str) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise _fail("wrong-type", f"{where} must be an object")
    unknown = sorted(set(obj) - allowed)
    if unknown:
        raise _fail("unknown-field", f"{where}: unknown field {unknown[0]!r}")
    for key in required:
        if key not in obj:
            raise _fail("missing-field", f"{where}: missing field {key!r}")
    return obj


def _check_shape(data: dict[str, Any]) -> None:
    _check_keys(data, TOP_KEYS, ("format", "game", "ruleset", "players", "rounds"), "record")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise _fail("wrong-type", "options must be an object")
    players = data["players"]
    if not isinstance(players, list) or not all(isinstance(name, str) and name for name in players):
        raise _fail("wrong-type", "players must be a list of non-empty names")
    if len(set(players)) != len(players):
        raise _fail("duplicate-player", "player names must be unique")
    if "setup" in data:
        _check_setup_shape(data["setup"], players)
    rulings = data.get("rulings", [])
    if not isinstance(rulings, list):
        raise _fail("wrong-type", "rulings must be a list")
    for number, action in enumerate(rulings):  # made before the first round
        if not isinstance(action, dict) or "ruling" not in action:
            raise _fail("action-kind", f"rulings[{number}]: rulings only")
        _check_action_shape(action, f"rulings[{number}]")
    rounds = data["rounds"]
    if not isinstance(rounds, list):
        raise _fail("wrong-type", "rounds must be a list")
    for index, round_data in enumerate(rounds):
        _check_round_shape(round_data, f"rounds[{index}]")


def _check_setup_shape(setup: object, players: list[str]) -> None:
    setup = _check_keys(setup, SETUP_KEYS, (), "setup")
    if "dice" in setup:
        dice = setup["dice"]
        if not isinstance(dice, dict) or not all(_is_int(count) for count in dice.values()):
            raise _fail("wrong-type", "setup.dice maps players to whole numbers")
        if set(dice) != set(players):
            raise _fail("setup-dice-players", "setup.dice must list every player, and only them")
    if "starter" in setup and not isinstance(setup["starter"], str):
        raise _fail("wrong-type", "setup.starter must be a player's name")
    if "mode" in setup and setup["mode"] not in MODES:
        raise _fail("unknown-value", f"setup.mode must be one of {', '.join(MODES)}")
    if "initial_players" in setup and not _is_int(setup["initial_players"]):
        raise _fail("wrong-type", "setup.initial_players must be a whole number")
    if "calzo_disabled" in setup and not isinstance(setup["calzo_disabled"], bool):
        raise _fail("wrong-type", "setup.calzo_disabled must be true or false")


def _check_outcome_round_shape(round_data: dict[str, Any], where: str) -> None:
    """A physical table's round entered by its outcome (no dice, no actions)."""
    _check_keys(round_data, OUTCOME_ROUND_KEYS, ("outcome",), where)
    if "direction" in round_data and round_data["direction"] not in ("cw", "ccw"):
        raise _fail("unknown-value", f"{where}.direction must be cw or ccw")
    actions = round_data.get("actions", [])
    if not isinstance(actions, list):
        raise _fail("wrong-type", f"{where}.actions must be a list")
    for number, action in enumerate(actions):  # only the rulings made after the round
        if not isinstance(action, dict) or "ruling" not in action:
            message = f"{where}.actions[{number}]: a round entered by its outcome has rulings only"
            raise _fail("action-kind", message)
        _check_action_shape(action, f"{where}.actions[{number}]")
    if isinstance(round_data["outcome"], dict) and "at_time" in round_data["outcome"]:
        _check_state_at_time_shape(round_data["outcome"], where)
        return
    outcome = _check_keys(round_data["outcome"], OUTCOME_KEYS, ("by",), f"{where}.outcome")
    for key in ("by", "loser", "against"):
        if key in outcome and not isinstance(outcome[key], str):
            raise _fail("wrong-type", f"{where}.outcome.{key} must be a player's name")
    if ("call" in outcome) == ("abandon" in outcome):
        raise _fail("action-kind", f"{where}.outcome needs exactly one of call, abandon")
    if "abandon" in outcome:
        if outcome["abandon"] is not True:
            raise _fail("unknown-value", f"{where}.outcome.abandon can only be true")
        if set(outcome) - {"by", "abandon"}:
            raise _fail("unknown-field", f"{where}.outcome: an abandonment has only by")
        return
    if outcome["call"] not in OUTCOME_CALLS:
        raise _fail("unknown-value", f"{where}.outcome.call must be dudo, calza, paso or salpicon")
    if "exact" in outcome and not isinstance(outcome["exact"], bool):
        raise _fail("wrong-type", f"{where}.outcome.exact must be true or false")
    needed = "exact" if outcome["call"] == "calza" else "loser"
    if needed not in outcome:
        raise _fail("missing-field", f"{where}.outcome: missing field {needed!r}")
    other = "loser" if needed == "exact" else "exact"
    if other in outcome:
        raise _fail("unknown-field", f"{where}.outcome: a {outcome['call']} has no {other!r}")


def _check_state_at_time_shape(outcome: dict[str, Any], where: str) -> None:
    """A state at time (docs/rules.md §9.1, T-6): `{"at_time": {name: dice held}}`."""
    if set(outcome) != {"at_time"}:
        raise _fail("unknown-field", f"{where}.outcome: a state at time has only at_time")
    held = outcome["at_time"]
    if not isinstance(held, dict) or not all(_is_int(count) for count in held.values()):
        raise _fail("wrong-type", f"{where}.outcome.at_time maps players to whole numbers")


def _check_round_shape(round_data: object, where: str) -> None:
    if isinstance(round_data, dict) and "outcome" in round_data:
        _check_outcome_round_shape(round_data, where)
        return
    round_data = _check_keys(round_data, ROUND_KEYS, ("dice",), where)
    dice = round_data["dice"]
    if not isinstance(dice, dict) or not all(
        isinstance(hand, list) and all(_is_int(face) for face in hand) for hand in dice.values()
    ):
        raise _fail("wrong-type", f"{where}.dice maps players to lists of whole numbers")
    if "direction" in round_data and round_data["direction"] not in ("cw", "ccw"):
        raise _fail("unknown-value", f"{where}.direction must be cw or ccw")
    actions = round_data.get("actions", [])
    if not isinstance(actions, list):
        raise _fail("wrong-type", f"{where}.actions must be a list")
    for index, action in enumerate(actions):
        _check_action_shape(action, f"{where}.actions[{index}]")


def _check_action_shape(action: object, where: str) -> None:
    if isinstance(action, dict) and "ruling" in action:
        _check_keys(action, frozenset(("ruling", "reason")), ("ruling",), where)
        if not isinstance(action["ruling"], dict):
            raise _fail("wrong-type", f"{where}.ruling must be an object")
        if not isinstance(action.get("reason", ""), str):
            raise _fail("wrong-type", f"{where}.reason must be text")
        return
    action = _check_keys(action, frozenset(("by", *ACTION_KINDS)), ("by",), where)
    if not isinstance(action["by"], str):
        raise _fail("wrong-type", f"{where}.by must be a player's name")
    kinds = [kind for kind in ACTION_KINDS if kind in action]
    if len(kinds) != 1:
        raise _fail("action-kind", f"{where} needs exactly one of {', '.join(ACTION_KINDS)}")
    kind = kinds[0]
    value = action[kind]
    if kind == "bid":
        if not isinstance(value, list) or len(value) != 2 or not all(_is_int(part) for part in value):
            raise _fail("wrong-type", f"{where}.bid must be [quantity, face]")
    elif kind == "call":
        if value not in ("dudo", "calza"):
            raise _fail("unknown-value", f"{where}.call must be dudo or calza")
    elif value is not True:
        raise _fail("unknown-value", f"{where}.{kind} can only be true")


# --- pass 2: the rules -------------------------------------------------------------------


@dataclass
class _RuleBreak(Exception):
    round: int | None  # None: a ruling before the first round, `action` its index in `rulings`
    action: int | None
    error: RuleError


def match_started_of(data: dict[str, Any]) -> MatchStarted:
    players: list[str] = data["players"]
    setup: dict[str, Any] = data.get("setup", {})
    dice = setup.get("dice")
    starter = setup.get("starter")
    if starter is None:
        counts = dice or {}
        starter = next((name for name in players if counts.get(name, 5) > 0), players[0])
    try:
        started = start_match(
            data["ruleset"],
            players,
            starter=starter,
            options=data.get("options", {}),
            dice=dice,
            mode=setup.get("mode"),
            initial_players=setup.get("initial_players"),
            calzo_disabled=setup.get("calzo_disabled"),
        )
    except RuleError as exc:
        raise RecordFormatError(exc.code, exc.message) from exc
    # A record with a round entered by its outcome is a physical table's (no clock), and so is
    # one with a ruling before its first round: only a physical table waits for its first entry.
    if data.get("rulings") or any("outcome" in round_data for round_data in data["rounds"]):
        return replace(started, physical=True)
    return started


def outcome_command(round_data: dict[str, Any]) -> RecordOutcome | Abandon | StateAtTime:
    """The command of a round entered by its outcome (shape already checked)."""
    outcome: dict[str, Any] = round_data["outcome"]
    direction = round_data.get("direction")
    if "at_time" in outcome:
        return StateAtTime(tuple(outcome["at_time"].items()), direction=direction)
    if outcome.get("abandon"):
        return Abandon(outcome["by"], direction=direction)
    return RecordOutcome(
        outcome["call"],
        outcome["by"],
        loser=outcome.get("loser"),
        exact=outcome.get("exact"),
        against=outcome.get("against"),
        direction=direction,
    )


def command_of_action(action: dict[str, Any], direction: str | None) -> PlayerCommand:
    player: str = action["by"]
    if "bid" in action:
        quantity, face = action["bid"]
        return PlaceBid(player, quantity, face, direction=direction)  # type: ignore[arg-type]
    if "call" in action:
        return CallDudo(player) if action["call"] == "dudo" else CallCalza(player)
    if "paso" in action:
        return AnnouncePaso(player)
    if "salpicon" in action:
        return AnnounceSalpicon(player)
    if "deny" in action:
        return DenySalpicon(player)
    if "timeout" in action:
        return TimeOut(player)
    return Abandon(player, direction=direction)  # type: ignore[arg-type]


def _apply(state: MatchState, events: list[Event]) -> MatchState:
    for event in events:
        state = evolve(state, event)
    return state


def _round_outcome(event: RoundResolved | PlayerAbandoned | RoundRecorded) -> dict[str, Any]:
    if isinstance(event, RoundRecorded):
        return {
            "result": event.result,
            "dice_change": dict(event.dice_change),
            "eliminated": list(event.eliminated),
            "next_starter": event.next_starter,
            "next_mode": event.next_mode,
        }
    if isinstance(event, PlayerAbandoned):
        return {
            "result": "restart",
            "dice_change": {event.player: -event.dice_lost},
            "eliminated": [event.player],
            "next_starter": event.next_starter,
            "next_mode": event.next_mode,
        }
    outcome: dict[str, Any] = {"result": event.result}
    if event.count is not None:
        outcome["count"] = event.count
    outcome["dice_change"] = dict(event.dice_change)
    outcome["eliminated"] = list(event.eliminated)
    outcome["next_starter"] = event.next_starter
    outcome["next_mode"] = event.next_mode
    return outcome


def _play_round(
    state: MatchState, index: int, round_data: dict[str, Any]
) -> tuple[MatchState, dict[str, Any]]:
    players = state.config.players
    if "outcome" in round_data:
        try:
            if state.phase == "over":
                raise RuleError("match-over", "the match is already over")
            events = decide(state, outcome_command(round_data))
        except RuleError as exc:
            raise _RuleBreak(index, None, exc) from exc
        state = _apply(state, events)
        recorded = events[0]  # a decision at time may follow it
        assert isinstance(recorded, RoundRecorded)
        for number, action in enumerate(round_data.get("actions", [])):
            try:
                state = _apply(state, decide(state, ruling_of_action(action)))
            except RuleError as exc:
                raise _RuleBreak(index, number, exc) from exc
        return state, _round_outcome(recorded)
    dice_by_name: dict[str, list[int]] = round_data["dice"]
    direction: str = round_data.get("direction", "cw")
    try:
        if state.phase == "over":
            raise RuleError("match-over", "the match is already over")
        if set(dice_by_name) - set(players):
            raise RuleError("dice-mismatch", "dice for a player who is not seated")
        for name, count in zip(players, state.dice_counts, strict=True):
            if count == 0 and name in dice_by_name:
                raise RuleError("dice-mismatch", f"{name} holds no dice")
            if count > 0 and name not in dice_by_name:
                raise RuleError("dice-mismatch", f"{name}'s dice are missing")
        if direction == "ccw" and not state.rules.starter_chooses_direction:
            raise RuleError("direction-not-choosable", f"{state.rules.ruleset} is played clockwise")
        hands = tuple(tuple(dice_by_name.get(name, ())) for name in players)
        state = _apply(state, decide(state, StartRound(hands)))
    except RuleError as exc:
        raise _RuleBreak(index, None, exc) from exc
    outcome: dict[str, Any] = {"result": None}
    for number, action in enumerate(round_data.get("actions", [])):
        if "ruling" in action:
            in_play = state.round is not None
            try:
                ruling = ruling_of_action(action)
                state = _apply(state, decide(state, ruling))
            except RuleError as exc:
                raise _RuleBreak(index, number, exc) from exc
            if in_play and state.round is None:  # the ruling ended the round unplayed
                outcome = {"result": "ruling", "ruling": ruling.kind}
            continue
        try:
            if state.round is None:
                raise RuleError(
                    "match-over" if state.phase == "over" else "round-over",
                    "the match is over" if state.phase == "over" else "the round is already resolved",
                )
            opening = state.round.bid is None
            on_turn = players[state.round.to_act]
            timed_out_opening = opening and "timeout" in action and action["by"] == on_turn
            if timed_out_opening and direction != state.direction:
                kept = RuleError("direction-must-be-kept", "a round opened by a timeout keeps the direction")
                raise _RuleBreak(index, None, kept)
            command = command_of_action(action, direction if opening else None)
            events = decide(state, command)
        except RuleError as exc:
            raise _RuleBreak(index, number, exc) from exc
        state = _apply(state, events)
        for event in events:  # a decision at time may follow the round's end
            if isinstance(event, RoundResolved | PlayerAbandoned):
                outcome = _round_outcome(event)
    return state, outcome


def replay_record(data: dict[str, Any]) -> dict[str, Any]:
    """The outcome of a record as docs/match-record.md prints it."""
    check_header(data)
    _check_shape(data)
    state = initial_state(match_started_of(data))
    outcomes: list[dict[str, Any]] = []
    rounds: list[dict[str, Any]] = data["rounds"]
    try:
        state = _play_rulings_before(state, data.get("rulings", []))
        for index, round_data in enumerate(rounds):
            if outcomes and outcomes[-1]["result"] is None:
                raise _RuleBreak(
                    index - 1,
                    None,
                    RuleError("round-not-resolved", "a round that does not resolve is not the last"),
                )
            state, outcome = _play_round(state, index, round_data)
            outcomes.append(outcome)
    except _RuleBreak as broken:
        return {
            "valid": False,
            "error": {
                "round": broken.round,
                "action": broken.action,
                "code": broken.error.code,
                "message": broken.error.message,
            },
        }
    players = state.config.players
    replayed: dict[str, Any] = {
        "valid": True,
        "rounds": outcomes,
        "dice": dict(zip(players, _held(state), strict=True)),
        "calzo_disabled": state.calzo_disabled,
        "winner": None if state.winner is None else players[state.winner],
        "to_act": None if state.round is None or state.paused is not None else players[state.round.to_act],
    }
    if state.paused is not None:
        replayed["paused"] = {"reason": state.paused}
    if state.table.awarded is not None:
        replayed["placements"] = dict(zip(players, state.table.awarded, strict=True))
    time = state.table.time
    if time is not None:
        placed = at_time_placements(state)
        replayed["time_called"] = {
            "policy": time.policy,
            "decided_at_time": time.decided,
            "placements": None if placed is None else {players[s]: place for s, place in placed.items()},
        }
    return replayed


def _play_rulings_before(state: MatchState, rulings: list[dict[str, Any]]) -> MatchState:
    """The rulings made before the first round, judged in order as in live play."""
    for number, action in enumerate(rulings):
        try:
            state = _apply(state, decide(state, ruling_of_action(action)))
        except RuleError as exc:
            raise _RuleBreak(None, number, exc) from exc
    return state


def _held(state: MatchState) -> tuple[int, ...]:
    """The dice each player holds, those a sudden death set aside included."""
    time = state.table.time
    return state.dice_counts if time is None else time.held(state.dice_counts)


# --- writing --------------------------------------------------------------------------------


def write_record(events: Iterable[Event]) -> dict[str, Any]:
    """The record of a match from its events (a finished match, or one in progress); an
    undone entry is left out, as if it never happened."""
    iterator = iter(without_undone(events))
    started = next(iterator)
    if not isinstance(started, MatchStarted):
        raise ValueError("a match starts with match_started")
    defaults = {name: default for name, (_, default) in OPTIONS[started.ruleset].items()}  # type: ignore[index]
    record: dict[str, Any] = {
        "format": FORMAT,
        "game": "dudo",
        "ruleset": started.ruleset,
        "options": {name: value for name, value in started.options if defaults.get(name) != value},
        "players": list(started.players),
        "setup": {
            "dice": dict(zip(started.players, started.dice, strict=True)),
            "starter": started.starter,
            "mode": started.mode,
            "initial_players": started.initial_players,
            "calzo_disabled": started.calzo_disabled,
        },
        "rounds": [],
    }
    direction = started.direction
    current: dict[str, Any] | None = None
    before_rounds: list[dict[str, Any]] = []  # rulings before the first round (a physical table)
    state = initial_state(started)  # a round after a void-round inherits the restored direction
    for event in iterator:
        before, state = state, evolve(state, event)
        if isinstance(event, AT_TIME_FOLLOWERS):
            continue  # drawn again from the time call when the record is replayed
        if isinstance(event, RULING_EVENTS):
            (before_rounds if current is None else current["actions"]).append(ruling_action(event))
            if not isinstance(event, ResultAwarded):
                direction = state.direction
            continue
        if isinstance(event, RoundRecorded):
            direction = event.direction
            current = {"outcome": _outcome_of(before, event), "direction": direction, "actions": []}
            record["rounds"].append(current)
            continue
        if isinstance(event, RoundStarted):
            current = {
                "dice": {
                    name: list(hand) for name, hand in zip(started.players, event.dice, strict=True) if hand
                },
                "direction": direction,
                "actions": [],
            }
            record["rounds"].append(current)
            continue
        assert current is not None, "an action outside a round"
        actions: list[dict[str, Any]] = current["actions"]
        if isinstance(event, BidMade):
            if event.direction is not None:
                direction = event.direction
                current["direction"] = direction
            actions.append(
                {
                    "by": event.player,
                    **({"timeout": True} if event.timed_out else {"bid": [event.quantity, event.face]}),
                }
            )
        elif isinstance(event, PasoAnnounced):
            actions.append({"by": event.player, "paso": True})
        elif isinstance(event, SalpiconAnnounced):
            actions.append({"by": event.player, "salpicon": True})
        elif isinstance(event, RoundResolved):
            if event.timed_out:
                actions.append({"by": event.caller, "timeout": True})
            elif event.result == "salpicon":
                actions.append({"by": event.caller, "deny": True})
            else:
                actions.append({"by": event.caller, "call": "calza" if event.result == "calza" else "dudo"})
        elif isinstance(event, PlayerAbandoned):
            if event.direction is not None:
                direction = event.direction
                current["direction"] = direction
            actions.append({"by": event.player, "abandon": True})
    for round_data in record["rounds"]:
        if "outcome" in round_data and not round_data["actions"]:
            del round_data["actions"]
    if before_rounds:  # written between the setup and the rounds, where they were made
        rounds = record.pop("rounds")
        record |= {"rulings": before_rounds, "rounds": rounds}
    return record


def _outcome_of(before: MatchState, event: RoundRecorded) -> dict[str, Any]:
    """A recorded round's `outcome` in a record: the call, its caller and what it cost; a
    state at time, the dice each player held once it ended."""
    if event.result == "at-time":
        change = dict(event.dice_change)
        players = before.config.players
        counts = before.dice_counts
        held = {players[seat]: counts[seat] + change.get(players[seat], 0) for seat in before.live_seats()}
        return {"at_time": held}
    if event.result == "restart":
        return {"by": event.caller, "abandon": True}
    outcome: dict[str, Any] = {"by": event.caller, "call": event.result, "against": event.target}
    if event.result == "calza":
        outcome["exact"] = any(delta > 0 for _, delta in event.dice_change) or not event.dice_change
    else:
        outcome["loser"] = next(name for name, delta in event.dice_change if delta < 0)
    return outcome
