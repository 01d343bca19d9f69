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

`parse_ruling` does the same for a referee's ruling (`cacho.engine.rulings`): the
command it returns is decided by the same `decide`. A paused match has no turn key, so
no deadline and no timeout step, while its dice scope stays that of the turn in play.

`Game.traits` and `Game.table_line` (cacho.engine.traits) say what the shells draw
differently for a game, so that none of them branches on its name.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from cacho.engine import alalay, bidding, timers
from cacho.engine.alalay import at_time as alalay_at_time
from cacho.engine.alalay.bots import bot_payload as alalay_bot_payload
from cacho.engine.alalay.record import parse_record as parse_alalay_record
from cacho.engine.alalay.record import ruling_of as alalay_record_ruling
from cacho.engine.alalay.results import match_results as alalay_results
from cacho.engine.bidding import at_time as bidding_at_time
from cacho.engine.bidding.at_time import placements as bidding_at_time_placements
from cacho.engine.bidding.bots import bot_payload as bidding_bot_payload
from cacho.engine.bidding.entries import entry_options as bidding_entry_options
from cacho.engine.bidding.facts import round_facts as bidding_round_facts
from cacho.engine.bidding.reasoning import reasoning_payload
from cacho.engine.bidding.record import command_of_action as bidding_record_command
from cacho.engine.bidding.record import match_started_of as bidding_record_start
from cacho.engine.bidding.record import outcome_command as bidding_outcome_command
from cacho.engine.bidding.record_rulings import ruling_of_action as bidding_record_ruling
from cacho.engine.bidding.results import match_results as bidding_results
from cacho.engine.bidding.rules import OPTIONS
from cacho.engine.bots import BotRandom
from cacho.engine.errors import RuleError
from cacho.engine.results import SeatResult
from cacho.engine.round_facts import RoundFacts
from cacho.engine.rulings import KINDS, parse_ruling
from cacho.engine.traits import ALALAY, BIDDING, TableLine, Traits, alalay_line, bidding_line
from cacho.engine.undo import Undo
from cacho.engine.viewer import Viewer

Command = Any  # a bidding or an Alalay command
Event = Any
State = Any


@dataclass(frozen=True)
class OptionSpec:
    """One option of a ruleset: its name, the values it takes and its default."""

    name: str
    values: tuple[object, ...]
    default: object


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


def _by(payload: Mapping[str, Any], seats: Sequence[str]) -> str:
    """The seat an entry names (`by`), one of the match's."""
    name = _str_field(payload, "by")
    if name not in seats:
        raise RuleError("unknown-player", f"{name!r} is not seated in this match")
    return name


def _dice_field(payload: Mapping[str, Any], name: str) -> tuple[int, ...]:
    value = payload[name]
    if not isinstance(value, list) or not all(_is_int(face) for face in value):
        raise RuleError("invalid-field", f"{name} must be a list of dice")
    return tuple(value)


def _strength(game: Game, strength: str) -> str:
    if strength not in game.bot_strengths:
        raise RuleError("unknown-bot-strength", f"{game.name} has no bot of strength {strength!r}")
    return strength


def _not_physical() -> RuleError:
    return RuleError("not-physical", "this match is played online: the server rolls its dice")


class Game(Protocol):
    name: str
    traits: Traits  # what the shells draw differently for this game (cacho.engine.traits)
    # The policies that decide a table at time (rules.md §9.1), the default first.
    time_policies: tuple[str, ...]
    # The bots' strengths, the plainest first (docs/engine.md, "Bots").
    bot_strengths: tuple[str, ...]

    def rulesets(self) -> tuple[str, ...]: ...

    def options(self, ruleset: str) -> tuple[OptionSpec, ...]:
        """The options a ruleset of this game takes (rules.md, per ruleset)."""
        ...

    def seats(self, state: State) -> tuple[str, ...]:
        """The match's seats (players, or Alalay entries), in seat order."""
        ...

    def seat_members(self, state: State) -> dict[str, tuple[str, ...]]:
        """Seat -> the players of the pair or team at it, in the order they take its turns;
        a seat played alone (every seat of a game without team seats) is not listed."""
        ...

    def start(
        self,
        ruleset: str,
        options: Mapping[str, object],
        seats: Sequence[str],
        first_seat: int,
        turn_seconds: int,
        physical: bool = False,
        members: Sequence[Sequence[str]] = (),
    ) -> list[Event]:
        """The match's first events; `physical`: played at a physical table (no clock);
        `members`: per seat, the players of a pair or team (empty: the seat plays alone),
        for a game whose seats can be teams (RuleError `setup-members` otherwise)."""
        ...

    def initial_state(self, first: Event) -> State: ...

    def evolve(self, state: State, event: Event) -> State: ...

    def replay(self, events: Iterable[Event]) -> State: ...

    def decide(self, state: State, command: Command) -> list[Event]: ...

    def parse_command(self, seat: str, payload: Mapping[str, Any], at: int) -> Command | DiceNeeded: ...

    def parse_ruling(
        self, state: State, payload: Mapping[str, Any], at: int | None, reason: str = ""
    ) -> Command | DiceNeeded:
        """A referee's ruling (`{"kind": ..., ...params}`) as a command for `decide`;
        RuleError `ruling-...` for one that is malformed or does not fit this game."""
        ...

    def dice_needed(self, state: State, at: int) -> DiceNeeded | None: ...

    def is_physical(self, state: State) -> bool:
        """Played at a physical table: the scorekeeper enters the dice; no clock, no bot."""
        ...

    def parse_entry(self, state: State, payload: Mapping[str, Any]) -> Command:
        """A physical table scorekeeper's entry (docs/engine.md, "Physical tables"): a move
        with its dice entered, a bidding round's dice or outcome, or `undo`; strictly
        parsed as `parse_command`, and RuleError `not-physical` for an online match."""
        ...

    def entry_options(self, state: State) -> dict[str, Any]:
        """What the scorekeeper may enter now (buttons only for legal choices)."""
        ...

    def dice_scope(self, state: State) -> str | None: ...

    def event_dice(self, event: Event, state: State) -> tuple[int, ...] | None: ...

    def to_act(self, state: State) -> str | None:
        """Who is to act now (None: nobody, as in a finished or paused match)."""
        ...

    def turn_key(self, state: State) -> str | None: ...

    def deadline(self, state: State, turn_started_at: int | None, turn_seconds: int) -> int | None: ...

    def timeout_step(self, state: State, turn_key: str, at: int) -> Command | DiceNeeded | None: ...

    def is_over(self, state: State) -> bool: ...

    def winners(self, state: State) -> tuple[str, ...]: ...

    def scores(self, state: State) -> dict[str, Any]: ...

    def results(self, events: Sequence[Event]) -> tuple[SeatResult, ...]:
        """One result per seat, in seat order: placements (1 is the winner, shared places
        for seats that finish level) and the figures a competition breaks ties with."""
        ...

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]: ...

    def bot_payload(
        self, state: State, seat: str, rng: BotRandom, strength: str = "random"
    ) -> dict[str, Any] | None:
        """The payload the game's bot of `strength` (one of `bot_strengths`) sends for `seat`
        now, as a client would send it to `parse_command` (None: `seat` has nothing to do);
        RuleError `unknown-bot-strength` for a strength the game has not."""
        ...

    def bot_payload_for_view(
        self, view: Mapping[str, Any], rng: BotRandom, strength: str = "random"
    ) -> dict[str, Any] | None:
        """The same policy from what the player sees: their `view`, JSON or not."""
        ...

    def view_event(self, event: Event, state: State, viewer: Viewer) -> dict[str, Any]: ...

    def table_line(self, view: Mapping[str, Any]) -> TableLine:
        """A live table in one line (seats, standing, bid, pressure) from its spectator view."""
        ...

    def event_to_dict(self, event: Event) -> dict[str, Any]: ...

    def event_from_dict(self, data: dict[str, Any]) -> Event: ...

    def write_record(self, events: Sequence[Event]) -> dict[str, Any]: ...

    def replay_record(self, data: dict[str, Any]) -> dict[str, Any]: ...

    def record_events(self, data: dict[str, Any], physical: bool = False) -> list[Event]:
        """The events of a valid record, decided again; `physical`: as a physical table's."""
        ...

    def round_facts(self, events: Sequence[Event]) -> tuple[RoundFacts, ...]:
        """Each finished round's facts (`cacho.engine.round_facts`); none for a game
        without bids."""
        ...


class _EngineGame:
    """What an adapter passes straight on to its engine package (`engine`)."""

    engine: Any
    ruling_kinds: frozenset[str]

    def parse_ruling(
        self, state: State, payload: Mapping[str, Any], at: int | None, reason: str = ""
    ) -> Command | DiceNeeded:
        rule = parse_ruling(payload, reason, at)
        if rule.kind not in self.ruling_kinds:
            raise RuleError("ruling-not-in-game", f"{rule.kind} is not a ruling of this game")
        return rule

    def initial_state(self, first: Event) -> State:
        return self.engine.initial_state(first)

    def seat_members(self, state: State) -> dict[str, tuple[str, ...]]:
        return {}  # each seat is one player

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
    traits = BIDDING
    time_policies: tuple[str, ...] = bidding_at_time.POLICIES
    bot_strengths: tuple[str, ...] = ("random", "reasoning")
    ruling_kinds = frozenset(KINDS) - {"correct-turn"}

    def round_facts(self, events: Sequence[Event]) -> tuple[RoundFacts, ...]:
        return bidding_round_facts(events)

    def rulesets(self) -> tuple[str, ...]:
        return tuple(bidding.RULESETS)

    def options(self, ruleset: str) -> tuple[OptionSpec, ...]:
        specs = OPTIONS.get(ruleset, {})  # type: ignore[call-overload]
        return tuple(OptionSpec(name, tuple(values), default) for name, (values, default) in specs.items())

    def seats(self, state: State) -> tuple[str, ...]:
        players: tuple[str, ...] = state.config.players
        return players

    def start(
        self,
        ruleset: str,
        options: Mapping[str, object],
        seats: Sequence[str],
        first_seat: int,
        turn_seconds: int,
        physical: bool = False,
        members: Sequence[Sequence[str]] = (),
    ) -> list[Event]:
        if any(members):
            raise RuleError("setup-members", "every player holds their own dice: a seat is one player")
        if not 0 <= first_seat < len(seats):
            raise RuleError("setup-starter", "the starter is not a seat")
        started = bidding.start_match(
            ruleset, seats, starter=seats[first_seat], options=options, turn_seconds=turn_seconds
        )
        return [dataclasses.replace(started, physical=True) if physical else started]

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

    def is_physical(self, state: State) -> bool:
        physical: bool = state.config.physical
        return physical

    def parse_entry(self, state: State, payload: Mapping[str, Any]) -> Command:
        if not self.is_physical(state):
            raise _not_physical()
        kinds = (
            "dice",
            "outcome",
            "state-at-time",
            "bid",
            "dudo",
            "calza",
            "paso",
            "salpicon",
            "deny",
            "abandon",
            "undo",
        )
        kind = _command_type(payload, kinds)
        players: tuple[str, ...] = state.config.players
        if kind == "undo":
            _fields(payload, ())
            return Undo()
        if kind == "dice":
            _fields(payload, ("dice",))
            hands = payload["dice"]
            if not isinstance(hands, Mapping):
                raise RuleError("invalid-field", "dice maps each player to the dice they hold")
            for name in hands:
                if name not in players:
                    raise RuleError("unknown-player", f"{name!r} is not seated in this match")
            return bidding.StartRound(
                tuple(_dice_field(hands, name) if name in hands else () for name in players)
            )
        direction = payload.get("direction")
        if direction is not None and direction not in ("cw", "ccw"):
            raise RuleError("invalid-field", "direction must be 'cw' or 'ccw'")
        if kind == "state-at-time":
            _fields(payload, ("dice",), ("direction",))
            held = payload["dice"]
            if not isinstance(held, Mapping) or not all(
                isinstance(name, str) and _is_int(count) for name, count in held.items()
            ):
                raise RuleError("invalid-field", "dice maps each player to the number of dice they hold")
            return bidding.StateAtTime(tuple(held.items()), direction=direction)
        if kind == "outcome":
            _fields(payload, ("call", "by"), ("loser", "exact", "against", "direction"))
            call = _str_field(payload, "call")
            exact = payload.get("exact")
            if exact is not None and not isinstance(exact, bool):
                raise RuleError("invalid-field", "exact must be true or false")
            for name in ("loser", "against"):
                if payload.get(name) is not None:
                    _str_field(payload, name)
            return bidding.RecordOutcome(
                call,  # type: ignore[arg-type]
                _by(payload, players),
                loser=payload.get("loser"),
                exact=exact,
                against=payload.get("against"),
                direction=direction,
            )
        if kind == "bid":
            _fields(payload, ("by", "quantity", "face"), ("direction",))
            return bidding.PlaceBid(
                _by(payload, players), _int_field(payload, "quantity"), _int_field(payload, "face"), direction
            )
        _fields(payload, ("by",))
        return self.parse_command(_by(payload, players), {"type": kind}, None)  # type: ignore[arg-type]

    def entry_options(self, state: State) -> dict[str, Any]:
        return bidding_entry_options(state)

    def dice_needed(self, state: State, at: int) -> DiceNeeded | None:
        if state.round is not None or state.phase != "awaiting-dice" or state.config.physical:
            return None  # a physical table's dice are entered by its scorekeeper
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
        if state.round is None or state.phase == "over" or state.paused is not None:
            return None  # nobody acts in a paused match
        name: str = state.config.players[state.round.to_act]
        return name

    def turn_key(self, state: State) -> str | None:
        current = state.round
        if current is None or state.paused is not None or state.config.physical:
            return None  # a physical table runs no clock
        return f"{current.number}-{len(current.actions)}-{current.to_act}"

    def deadline(self, state: State, turn_started_at: int | None, turn_seconds: int) -> int | None:
        if state.round is None or state.paused is not None or state.config.physical:
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
        players: tuple[str, ...] = state.config.players
        placed = bidding_at_time_placements(state)
        if placed is not None:  # decided at time: the first place may be shared
            return tuple(players[seat] for seat, place in sorted(placed.items()) if place == 1)
        if state.winner is None:
            return ()
        return (players[state.winner],)

    def scores(self, state: State) -> dict[str, Any]:
        players: tuple[str, ...] = state.config.players
        return {
            "dice": dict(zip(players, state.dice_counts, strict=True)),
            "total_dice": state.total_dice,
        }

    def results(self, events: Sequence[Event]) -> tuple[SeatResult, ...]:
        return bidding_results(events)

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        return bidding.view(state, viewer)

    def bot_payload(
        self, state: State, seat: str, rng: BotRandom, strength: str = "random"
    ) -> dict[str, Any] | None:
        if state.config.physical:
            return None  # nobody plays for a seat at a physical table
        if _strength(self, strength) == "reasoning":  # it thinks from its player's view only
            return reasoning_payload(bidding.view(state, Viewer.of_player(seat)), rng)
        return bidding_bot_payload(bidding.legal_actions(state, seat), rng)  # the view's `legal`

    def bot_payload_for_view(
        self, view: Mapping[str, Any], rng: BotRandom, strength: str = "random"
    ) -> dict[str, Any] | None:
        if view.get("physical"):
            return None
        if _strength(self, strength) == "reasoning":
            return reasoning_payload(view, rng)
        return bidding_bot_payload(view.get("legal") or {}, rng)

    def view_event(self, event: Event, state: State, viewer: Viewer) -> dict[str, Any]:
        return bidding.view_event(event, state.config.players, viewer)

    def table_line(self, view: Mapping[str, Any]) -> TableLine:
        return bidding_line(view)

    def record_events(self, data: dict[str, Any], physical: bool = False) -> list[Event]:
        """The events of a record (already found valid by `replay_record`), through `decide`."""
        first = bidding_record_start(data)
        if physical:
            first = dataclasses.replace(first, physical=True)
        events: list[Event] = [first]
        state = bidding.initial_state(first)
        for action in data.get("rulings", []):  # made before the first round
            state = self._apply(state, bidding_record_ruling(action), events)
        for round_data in data["rounds"]:
            if "outcome" in round_data:
                state = self._apply(state, bidding_outcome_command(round_data), events)
                for action in round_data.get("actions", []):
                    state = self._apply(state, bidding_record_ruling(action), events)
                continue
            players: tuple[str, ...] = state.config.players
            hands = tuple(tuple(round_data["dice"].get(name, ())) for name in players)
            state = self._apply(state, bidding.StartRound(hands), events)
            direction = round_data.get("direction", "cw")
            for action in round_data.get("actions", []):
                if "ruling" in action:
                    state = self._apply(state, bidding_record_ruling(action), events)
                    continue
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
    traits = ALALAY
    time_policies: tuple[str, ...] = alalay_at_time.POLICIES
    bot_strengths: tuple[str, ...] = ("random",)  # its one policy (alalay/bots.py)
    ruling_kinds = frozenset(KINDS) - {"void-round", "adjust-dice"}

    def round_facts(self, events: Sequence[Event]) -> tuple[RoundFacts, ...]:
        return ()  # no bid, no call: nothing for the integrity signals

    def rulesets(self) -> tuple[str, ...]:
        return ("alalay",)

    def options(self, ruleset: str) -> tuple[OptionSpec, ...]:
        return tuple(OptionSpec(f.name, (False, True), f.default) for f in dataclasses.fields(alalay.Options))

    def seats(self, state: State) -> tuple[str, ...]:
        return tuple(entry.name for entry in state.entries)

    def seat_members(self, state: State) -> dict[str, tuple[str, ...]]:
        return {entry.name: entry.members for entry in state.entries if entry.members}

    def start(
        self,
        ruleset: str,
        options: Mapping[str, object],
        seats: Sequence[str],
        first_seat: int,
        turn_seconds: int,
        physical: bool = False,
        members: Sequence[Sequence[str]] = (),
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
        if members and len(members) != len(seats):
            raise RuleError("setup-members", "members are listed per seat")
        entries = [
            alalay.Entry(name, tuple(members[seat]) if members else ()) for seat, name in enumerate(seats)
        ]
        (started,) = alalay.start_match(entries, parsed, first_seat)
        assert isinstance(started, alalay.MatchStarted)
        return [dataclasses.replace(started, physical=True) if physical else started]

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

    def is_physical(self, state: State) -> bool:
        physical: bool = state.physical
        return physical

    def parse_entry(self, state: State, payload: Mapping[str, Any]) -> Command:
        if not state.physical:
            raise _not_physical()
        kind = _command_type(payload, ("throw", "reroll", "turn", "score", "scratch", "abandon", "undo"))
        if kind == "undo":
            _fields(payload, ())
            return Undo()
        entries = self.seats(state)
        if kind == "throw":
            _fields(payload, ("by", "dice"))
            return alalay.Throw(_by(payload, entries), _dice_field(payload, "dice"))
        if kind == "reroll":
            _fields(payload, ("by", "keep", "dice"))
            keep = _dice_field(payload, "keep")
            return alalay.Reroll(_by(payload, entries), keep, _dice_field(payload, "dice"))
        _fields(payload, ("by",), ("position", "box"))
        by = _by(payload, entries)
        rest = {key: value for key, value in payload.items() if key != "by"}
        command = self.parse_command(by, rest, 0)
        assert not isinstance(command, DiceNeeded)
        return command

    def entry_options(self, state: State) -> dict[str, Any]:
        live = [entry.name for seat, entry in enumerate(state.entries) if not state.left[seat]]
        on = state.physical and not state.over and state.paused is None
        options: dict[str, Any] = {
            "phase": "over" if state.over else "playing",
            "paused": state.paused is not None,
            "undo": state.physical and state.undo is not None and state.paused is None,
            "abandon": live if on else [],
            "to_act": state.to_act if on else None,
            "legal": None,
        }
        if on and state.to_act is not None:
            legal = alalay.legal_actions(state, state.to_act)
            options["legal"] = {
                "member": legal.member,
                "phase": legal.phase,
                "dice": list(legal.dice),
                "first_throw": list(state.turn.first_throw),
                "throw": legal.throw,
                "reroll": legal.reroll,
                "turn": list(legal.turn_positions),
                "turned": list(state.turn.turned),
                "must_turn": legal.must_turn,
                "de_mano": legal.de_mano,
                "score": list(legal.score),
                "scratch": list(legal.scratch),
                "hints": dict(legal.hints),
            }
        return options

    def dice_scope(self, state: State) -> str | None:
        key = self._turn_id(state)
        return None if key is None else f"turn-{key}"

    def _turn_id(self, state: State) -> str | None:
        """The turn in play, paused or not: `seat-turns played`, and after a referee
        reopened the match `-r<reopens>` too, so a replayed turn never reuses a scope."""
        turn = state.turn
        if turn is None or state.over:
            return None
        suffix = f"-r{state.reopened}" if state.reopened else ""
        return f"{turn.seat}-{state.turns_played[turn.seat]}{suffix}"

    def event_dice(self, event: Event, state: State) -> tuple[int, ...] | None:
        if isinstance(event, alalay.DiceThrown | alalay.DiceRerolled):
            return tuple(event.dice)
        return None

    def to_act(self, state: State) -> str | None:
        name: str | None = None if state.paused is not None else state.to_act  # nobody acts while paused
        return name

    def turn_key(self, state: State) -> str | None:
        if state.paused is not None or state.physical:
            return None  # nobody acts in a paused match; a physical table runs no clock
        return self._turn_id(state)

    def deadline(self, state: State, turn_started_at: int | None, turn_seconds: int) -> int | None:
        if self.turn_key(state) is None or turn_started_at is None:
            return None
        seconds = timers.turn_seconds(state.timeouts[state.turn.seat], turn_seconds)
        return turn_started_at + seconds * 1000

    def timeout_step(self, state: State, turn_key: str, at: int) -> Command | DiceNeeded | None:
        if self.turn_key(state) != turn_key:
            return None
        turn = state.turn
        entry: str = state.entries[turn.seat].name
        if not turn.timed_out:
            return alalay.TimeOut(entry, at)
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

    def results(self, events: Sequence[Event]) -> tuple[SeatResult, ...]:
        return alalay_results(events)

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        out = alalay.view(state, viewer)
        out["game"] = "alalay"
        return out

    def bot_payload(
        self, state: State, seat: str, rng: BotRandom, strength: str = "random"
    ) -> dict[str, Any] | None:
        _strength(self, strength)
        if state.physical:
            return None  # nobody plays for an entry at a physical table
        return alalay_bot_payload(alalay.view(state, Viewer.of_player(seat)), rng)

    def bot_payload_for_view(
        self, view: Mapping[str, Any], rng: BotRandom, strength: str = "random"
    ) -> dict[str, Any] | None:
        _strength(self, strength)
        if view.get("physical"):
            return None
        return alalay_bot_payload(view, rng)

    def view_event(self, event: Event, state: State, viewer: Viewer) -> dict[str, Any]:
        return alalay.event_to_dict(event)  # Alalay hides nothing (AL-11)

    def table_line(self, view: Mapping[str, Any]) -> TableLine:
        return alalay_line(view)

    def record_events(self, data: dict[str, Any], physical: bool = False) -> list[Event]:
        """The events of a record (already found valid by `replay_record`), through `decide`."""
        started, turns = parse_alalay_record(data)
        if physical:
            started = dataclasses.replace(started, physical=True)
        events: list[Event] = [started]
        state = alalay.initial_state(started)
        for turn in turns:
            commands: list[Command] = []
            if turn.ruling is not None:
                for event in alalay.decide(state, alalay_record_ruling(turn)):
                    events.append(event)
                    state = alalay.evolve(state, event)
                continue
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


def game_named(name: str) -> Game:
    """The game called `name` (a match's or a view's `game`); RuleError `unknown-game` otherwise."""
    game = GAMES.get(name)
    if game is None:
        raise RuleError("unknown-game", f"unknown game {name!r}")
    return game


def game_for(ruleset: str) -> Game:
    """The game that plays `ruleset`; RuleError `unknown-ruleset` otherwise."""
    for game in GAMES.values():
        if ruleset in game.rulesets():
            return game
    raise RuleError("unknown-ruleset", f"unknown ruleset {ruleset!r}")
