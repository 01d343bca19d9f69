"""The one interface the match service hosts every game through (`Game`), what a command
that needs fresh dice answers instead (`DiceNeeded`), a ruleset's options (`OptionSpec`),
and `EngineGame`: what an adapter passes straight on to its engine package.

`Game.traits` and `Game.table_line` (cacho.engine.traits) say what the shells draw
differently for a game, so that none of them branches on its name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from cacho.engine.bots import BotRandom
from cacho.engine.errors import RuleError
from cacho.engine.results import SeatResult
from cacho.engine.round_facts import RoundFacts
from cacho.engine.rulings import parse_ruling
from cacho.engine.traits import TableLine, Traits
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


class Game(Protocol):
    name: str
    traits: Traits  # what the shells draw differently for this game (cacho.engine.traits)
    # The policies that decide a table at time (rules.md §9.1), the default first.
    time_policies: tuple[str, ...]
    # The bots' strengths, the plainest first (docs/engine.md, "Bots").
    bot_strengths: tuple[str, ...]
    # The ruling kinds this game decides (cacho.engine.rulings).
    ruling_kinds: frozenset[str]
    # The rulings a referee's form offers, in its order, each with the fields it asks.
    ruling_fields: Mapping[str, tuple[str, ...]]
    # The values a ruling's field takes, for a field the form offers as a list.
    ruling_choices: Mapping[str, tuple[str, ...]]

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


class EngineGame:
    """What an adapter passes straight on to its engine package (`engine`)."""

    engine: Any
    ruling_kinds: frozenset[str]
    ruling_fields: Mapping[str, tuple[str, ...]]
    ruling_choices: Mapping[str, tuple[str, ...]]

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
