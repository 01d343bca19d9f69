"""One adapter per game, with one interface: the match service hosts any game through it.

`GAMES["dudo"]` serves the four bidding rulesets, `GAMES["alalay"]` Cacho Alalay;
`game_for(ruleset)` picks one. Everything here is pure (standard library only):
dice and time are inputs. A command that needs fresh dice (a round's dice, an
Alalay throw or re-roll) comes back as `DiceNeeded`: the shell rolls `count` dice
from the fairness stream of `scope` and calls `build(dice)`.

`parse_command` turns a client's JSON payload (without the envelope: command id,
expected version) into a command, strictly: unknown fields, missing fields and
wrong JSON types are `RuleError`s with the codes `unknown-command-type`,
`unknown-field`, `missing-field`, `invalid-field`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from cacho.engine import alalay, bidding
from cacho.engine.alalay.record import parse_record as parse_alalay_record
from cacho.engine.bidding.record import command_of_action as bidding_record_command
from cacho.engine.bidding.record import match_started_of as bidding_record_start
from cacho.engine.errors import RuleError
from cacho.engine.viewer import Viewer

Command = Any  # a bidding or an Alalay command
Event = Any
State = Any


@dataclass(frozen=True)
class DiceNeeded:
    """The next command needs `count` dice of the fairness stream of `scope`
    (None: the scope of the round or turn in progress, `Game.dice_scope`)."""

    count: int
    scope: str | None
    build: Callable[[tuple[int, ...]], Command]


# ---------------------------------------------------------------- strict payloads


def _is_int(value: object) -> bool:
    return type(value) is int


def _fields(payload: Mapping[str, Any], required: Sequence[str], optional: Sequence[str] = ()) -> None:
    allowed = {"type", *required, *optional}
    unknown = sorted(set(payload) - allowed)
    if unknown:
        raise RuleError("unknown-field", f"unknown field(s) {unknown}")
    missing = [name for name in required if name not in payload]
    if missing:
        raise RuleError("missing-field", f"missing field(s) {missing}")


def _int_field(payload: Mapping[str, Any], name: str) -> int:
    value = payload[name]
    if not _is_int(value):
        raise RuleError("invalid-field", f"{name} must be an integer")
    result: int = value
    return result


def _str_field(payload: Mapping[str, Any], name: str) -> str:
    value = payload[name]
    if not isinstance(value, str):
        raise RuleError("invalid-field", f"{name} must be a string")
    return value


def _command_type(payload: Mapping[str, Any], known: Iterable[str]) -> str:
    kind = payload.get("type")
    if not isinstance(kind, str):
        raise RuleError("missing-field", "a command has a string 'type'")
    if kind not in known:
        raise RuleError("unknown-command-type", f"unknown command type {kind!r}")
    return kind


class Game(Protocol):
    name: str

    def rulesets(self) -> tuple[str, ...]: ...

    def start(
        self,
        ruleset: str,
        options: Mapping[str, object],
        seats: Sequence[str],
        first_seat: int,
        turn_seconds: int,
    ) -> list[Event]: ...

    def initial_state(self, first: Event) -> State: ...

    def evolve(self, state: State, event: Event) -> State: ...

    def replay(self, events: Iterable[Event]) -> State: ...

    def decide(self, state: State, command: Command) -> list[Event]: ...

    def parse_command(self, seat: str, payload: Mapping[str, Any], at: int) -> Command | DiceNeeded: ...

    def dice_needed(self, state: State, at: int) -> DiceNeeded | None: ...

    def dice_scope(self, state: State) -> str | None: ...

    def event_dice(self, event: Event, state: State) -> tuple[int, ...] | None: ...

    def to_act(self, state: State) -> str | None: ...

    def turn_key(self, state: State) -> str | None: ...

    def deadline(self, state: State, turn_started_at: int | None, turn_seconds: int) -> int | None: ...

    def timeout_step(self, state: State, turn_key: str, at: int) -> Command | DiceNeeded | None: ...

    def is_over(self, state: State) -> bool: ...

    def winners(self, state: State) -> tuple[str, ...]: ...

    def scores(self, state: State) -> dict[str, Any]: ...

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]: ...

    def view_event(self, event: Event, state: State, viewer: Viewer) -> dict[str, Any]: ...

    def event_to_dict(self, event: Event) -> dict[str, Any]: ...

    def event_from_dict(self, data: dict[str, Any]) -> Event: ...

    def write_record(self, events: Sequence[Event]) -> dict[str, Any]: ...

    def replay_record(self, data: dict[str, Any]) -> dict[str, Any]: ...

    def record_events(self, data: dict[str, Any]) -> list[Event]: ...


class _EngineGame:
    """What an adapter passes straight on to its engine package (`engine`)."""

    engine: Any

    def initial_state(self, first: Event) -> State:
        return self.engine.initial_state(first)

    def evolve(self, state: State, event: Event) -> State:
        return self.engine.evolve(state, event)

    def replay(self, events: Iterable[Event]) -> State:
        return self.engine.replay(events)

    def decide(self, state: State, command: Command) -> list[Event]:
        return list(self.engine.decide(state, command))

    def event_to_dict(self, event: Event) -> dict[str, Any]:
        result: dict[str, Any] = self.engine.event_to_dict(event)
        return result

    def event_from_dict(self, data: dict[str, Any]) -> Event:
        return self.engine.event_from_dict(data)

    def write_record(self, events: Sequence[Event]) -> dict[str, Any]:
        result: dict[str, Any] = self.engine.write_record(events)
        return result

    def replay_record(self, data: dict[str, Any]) -> dict[str, Any]:
        result: dict[str, Any] = self.engine.replay_record(data)
        return result


# ---------------------------------------------------------------- bidding games


class BiddingGame(_EngineGame):
    name = "dudo"
    engine = bidding

    def rulesets(self) -> tuple[str, ...]:
        return tuple(bidding.RULESETS)

    def start(
        self,
        ruleset: str,
        options: Mapping[str, object],
        seats: Sequence[str],
        first_seat: int,
        turn_seconds: int,
    ) -> list[Event]:
        if not 0 <= first_seat < len(seats):
            raise RuleError("setup-starter", "the starter is not a seat")
        return [
            bidding.start_match(
                ruleset, seats, starter=seats[first_seat], options=options, turn_seconds=turn_seconds
            )
        ]

    def parse_command(self, seat: str, payload: Mapping[str, Any], at: int) -> Command | DiceNeeded:
        kind = _command_type(payload, ("bid", "dudo", "calza", "paso", "salpicon", "deny", "abandon"))
        if kind == "bid":
            _fields(payload, ("quantity", "face"), ("direction",))
            direction = payload.get("direction")
            if direction is not None and direction not in ("cw", "ccw"):
                raise RuleError("invalid-field", "direction must be 'cw' or 'ccw'")
            return bidding.PlaceBid(
                seat, _int_field(payload, "quantity"), _int_field(payload, "face"), direction, at
            )
        _fields(payload, ())
        simple: dict[str, Callable[[str, int], Command]] = {
            "dudo": bidding.CallDudo,
            "calza": bidding.CallCalza,
            "paso": bidding.AnnouncePaso,
            "salpicon": bidding.AnnounceSalpicon,
            "deny": bidding.DenySalpicon,
            "abandon": bidding.Abandon,
        }
        return simple[kind](seat, at)

    def dice_needed(self, state: State, at: int) -> DiceNeeded | None:
        if state.round is not None or state.phase != "awaiting-dice":
            return None
        counts: tuple[int, ...] = state.dice_counts

        def build(dice: tuple[int, ...]) -> Command:
            hands: list[tuple[int, ...]] = []
            offset = 0
            for count in counts:
                hands.append(tuple(dice[offset : offset + count]))
                offset += count
            return bidding.StartRound(tuple(hands), at)

        return DiceNeeded(sum(counts), f"round-{state.rounds_started + 1}", build)

    def dice_scope(self, state: State) -> str | None:
        return None if state.round is None else f"round-{state.round.number}"

    def event_dice(self, event: Event, state: State) -> tuple[int, ...] | None:
        if isinstance(event, bidding.RoundStarted):
            return tuple(face for hand in event.dice for face in hand)
        return None

    def to_act(self, state: State) -> str | None:
        if state.round is None or state.phase == "over":
            return None
        name: str = state.config.players[state.round.to_act]
        return name

    def turn_key(self, state: State) -> str | None:
        current = state.round
        if current is None:
            return None
        return f"{current.number}-{len(current.actions)}-{current.to_act}"

    def deadline(self, state: State, turn_started_at: int | None, turn_seconds: int) -> int | None:
        if state.round is None:
            return None
        deadline: int | None = state.round.deadline
        return deadline

    def timeout_step(self, state: State, turn_key: str, at: int) -> Command | DiceNeeded | None:
        player = self.to_act(state)
        if player is None or self.turn_key(state) != turn_key:
            return None
        return bidding.TimeOut(player, at)

    def is_over(self, state: State) -> bool:
        over: bool = state.phase == "over"
        return over

    def winners(self, state: State) -> tuple[str, ...]:
        if state.winner is None:
            return ()
        return (state.config.players[state.winner],)

    def scores(self, state: State) -> dict[str, Any]:
        players: tuple[str, ...] = state.config.players
        return {
            "dice": dict(zip(players, state.dice_counts, strict=True)),
            "total_dice": state.total_dice,
        }

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        return bidding.view(state, viewer)

    def view_event(self, event: Event, state: State, viewer: Viewer) -> dict[str, Any]:
        return bidding.view_event(event, state.config.players, viewer)

    def record_events(self, data: dict[str, Any]) -> list[Event]:
        """The events of a record (already found valid by `replay_record`), through `decide`."""
        first = bidding_record_start(data)
        events: list[Event] = [first]
        state = bidding.initial_state(first)
        for round_data in data["rounds"]:
            players: tuple[str, ...] = state.config.players
            hands = tuple(tuple(round_data["dice"].get(name, ())) for name in players)
            state = self._apply(state, bidding.StartRound(hands), events)
            direction = round_data.get("direction", "cw")
            for action in round_data.get("actions", []):
                opening = state.round is not None and state.round.bid is None
                command = bidding_record_command(action, direction if opening else None)
                state = self._apply(state, command, events)
        return events

    def _apply(self, state: State, command: Command, events: list[Event]) -> State:
        for event in bidding.decide(state, command):
            events.append(event)
            state = bidding.evolve(state, event)
        return state


# ---------------------------------------------------------------- Alalay

BOX_NAMES = (*alalay.BOXES, "grande")


class AlalayGame(_EngineGame):
    name = "alalay"
    engine = alalay

    def rulesets(self) -> tuple[str, ...]:
        return ("alalay",)

    def start(
        self,
        ruleset: str,
        options: Mapping[str, object],
        seats: Sequence[str],
        first_seat: int,
        turn_seconds: int,
    ) -> list[Event]:
        if ruleset != "alalay":
            raise RuleError("unknown-ruleset", f"unknown ruleset {ruleset!r}")
        known = ("dormida_on_full_reroll", "turn_exempt_if_made_hand")
        for name, value in options.items():
            if name not in known:
                raise RuleError("unknown-option", f"alalay has no option {name!r}")
            if not isinstance(value, bool):
                raise RuleError("invalid-option-value", f"option {name!r} is true or false")
        parsed = alalay.Options(**{name: bool(value) for name, value in options.items()})
        if len(seats) < 2:
            raise RuleError("setup-too-few-players", "a match needs at least 2 players")
        return list(alalay.start_match(list(seats), parsed, first_seat))

    def parse_command(self, seat: str, payload: Mapping[str, Any], at: int) -> Command | DiceNeeded:
        kind = _command_type(payload, ("throw", "reroll", "turn", "score", "scratch", "abandon"))
        if kind == "throw":
            _fields(payload, ())
            return self._roll(seat, alalay.RollRequest(seat, reroll=False))
        if kind == "reroll":
            _fields(payload, ("keep",))
            keep = payload["keep"]
            if not isinstance(keep, list) or not all(_is_int(die) for die in keep):
                raise RuleError("invalid-field", "keep must be a list of dice")
            if len(keep) > 4:
                raise RuleError("nothing-rerolled", "a re-roll throws 1 to 5 dice")
            request = alalay.RollRequest(seat, reroll=True, keep=tuple(keep), count=5 - len(keep))
            return self._roll(seat, request)
        if kind == "turn":
            _fields(payload, ("position",))
            return alalay.TurnDie(seat, _int_field(payload, "position"))
        if kind in ("score", "scratch"):
            _fields(payload, ("box",))
            box = _str_field(payload, "box")
            if box not in BOX_NAMES:
                raise RuleError("unknown-box", f"unknown box {box!r}")
            return alalay.Score(seat, box) if kind == "score" else alalay.Scratch(seat, box)
        _fields(payload, ())
        return alalay.Abandon(seat)

    def _roll(self, seat: str, request: alalay.RollRequest) -> DiceNeeded:
        # The scope is the turn in progress (`dice_scope`); decide still judges the throw.
        return DiceNeeded(request.count, None, request.fill)

    def dice_needed(self, state: State, at: int) -> DiceNeeded | None:
        return None  # Alalay dice are thrown by the player on turn (or the timer), never unasked

    def dice_scope(self, state: State) -> str | None:
        key = self.turn_key(state)
        return None if key is None else f"turn-{key}"

    def event_dice(self, event: Event, state: State) -> tuple[int, ...] | None:
        if isinstance(event, alalay.DiceThrown | alalay.DiceRerolled):
            return tuple(event.dice)
        return None

    def to_act(self, state: State) -> str | None:
        name: str | None = state.to_act
        return name

    def turn_key(self, state: State) -> str | None:
        turn = state.turn
        if turn is None or state.over:
            return None
        return f"{turn.seat}-{state.turns_played[turn.seat]}"

    def deadline(self, state: State, turn_started_at: int | None, turn_seconds: int) -> int | None:
        if self.turn_key(state) is None or turn_started_at is None:
            return None
        return turn_started_at + turn_seconds * 1000

    def timeout_step(self, state: State, turn_key: str, at: int) -> Command | DiceNeeded | None:
        if self.turn_key(state) != turn_key:
            return None
        turn = state.turn
        entry: str = state.entries[turn.seat].name
        if not turn.timed_out:
            return alalay.TimeOut(entry)
        step = alalay.auto_play(state)
        if step is None:
            return None
        if isinstance(step, alalay.RollRequest):
            return self._roll(entry, step)
        return step

    def is_over(self, state: State) -> bool:
        over: bool = state.over
        return over

    def winners(self, state: State) -> tuple[str, ...]:
        return tuple(state.winners)

    def scores(self, state: State) -> dict[str, Any]:
        return {
            "totals": {entry.name: total for entry, total in zip(state.entries, state.totals, strict=True)}
        }

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        out = alalay.view(state, viewer)
        out["game"] = "alalay"
        return out

    def view_event(self, event: Event, state: State, viewer: Viewer) -> dict[str, Any]:
        return alalay.event_to_dict(event)  # Alalay hides nothing (AL-11)

    def record_events(self, data: dict[str, Any]) -> list[Event]:
        """The events of a record (already found valid by `replay_record`), through `decide`."""
        started, turns = parse_alalay_record(data)
        events: list[Event] = [started]
        state = alalay.initial_state(started)
        for turn in turns:
            commands: list[Command] = []
            if turn.abandon:
                commands.append(alalay.Abandon(turn.by))
            else:
                assert turn.throw is not None
                if turn.timeout:
                    commands.append(alalay.TimeOut(turn.by))
                commands.append(alalay.Throw(turn.by, turn.throw))
                if turn.keep is not None:
                    commands.append(alalay.Reroll(turn.by, turn.keep, turn.rerolled))
                commands += [alalay.TurnDie(turn.by, position) for position in turn.turn or ()]
                if turn.score is not None:
                    commands.append(alalay.Score(turn.by, turn.score))
                elif turn.scratch is not None:
                    commands.append(alalay.Scratch(turn.by, turn.scratch))
            for command in commands:
                if state.over:
                    break
                for event in alalay.decide(state, command):
                    events.append(event)
                    state = alalay.evolve(state, event)
        return events


GAMES: dict[str, Game] = {"dudo": BiddingGame(), "alalay": AlalayGame()}


def game_for(ruleset: str) -> Game:
    """The game that plays `ruleset`; RuleError `unknown-ruleset` otherwise."""
    for game in GAMES.values():
        if ruleset in game.rulesets():
            return game
    raise RuleError("unknown-ruleset", f"unknown ruleset {ruleset!r}")
