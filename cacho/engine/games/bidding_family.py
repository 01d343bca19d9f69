"""The adapter of the bidding family (`GAMES["dudo"]`): dudo, cacho-chileno, cacho-online
and liars-dice, all played by `cacho.engine.bidding`."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cacho.engine import bidding
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
from cacho.engine.games.payloads import (
    check_fields,
    command_type,
    dice_field,
    int_field,
    is_int,
    known_strength,
    not_physical,
    seat_field,
    str_field,
)
from cacho.engine.games.protocol import Command, DiceNeeded, EngineGame, Event, OptionSpec, State
from cacho.engine.results import SeatResult
from cacho.engine.round_facts import RoundFacts
from cacho.engine.rulings import KINDS
from cacho.engine.traits import BIDDING, TableLine, bidding_line
from cacho.engine.undo import Undo
from cacho.engine.viewer import Viewer


class BiddingGame(EngineGame):
    name = "dudo"
    engine = bidding
    traits = BIDDING
    time_policies: tuple[str, ...] = bidding_at_time.POLICIES
    bot_strengths: tuple[str, ...] = ("random", "reasoning")
    ruling_kinds = frozenset(KINDS) - {"correct-turn"}
    ruling_fields: Mapping[str, tuple[str, ...]] = {
        "uphold": (),
        "void-round": ("round",),
        "adjust-dice": ("player", "delta"),
        "award-result": ("placements",),
        "penalty": ("seat", "dice"),
        "disqualify": ("seat",),
        "reopen": ("round",),
    }
    ruling_choices: Mapping[str, tuple[str, ...]] = {}

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
        kind = command_type(payload, ("bid", "dudo", "calza", "paso", "salpicon", "deny", "abandon"))
        if kind == "bid":
            check_fields(payload, ("quantity", "face"), ("direction",))
            direction = payload.get("direction")
            if direction is not None and direction not in ("cw", "ccw"):
                raise RuleError("invalid-field", "direction must be 'cw' or 'ccw'")
            return bidding.PlaceBid(
                seat, int_field(payload, "quantity"), int_field(payload, "face"), direction, at
            )
        check_fields(payload, ())
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
            raise not_physical()
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
        kind = command_type(payload, kinds)
        players: tuple[str, ...] = state.config.players
        if kind == "undo":
            check_fields(payload, ())
            return Undo()
        if kind == "dice":
            check_fields(payload, ("dice",))
            hands = payload["dice"]
            if not isinstance(hands, Mapping):
                raise RuleError("invalid-field", "dice maps each player to the dice they hold")
            for name in hands:
                if name not in players:
                    raise RuleError("unknown-player", f"{name!r} is not seated in this match")
            return bidding.StartRound(
                tuple(dice_field(hands, name) if name in hands else () for name in players)
            )
        direction = payload.get("direction")
        if direction is not None and direction not in ("cw", "ccw"):
            raise RuleError("invalid-field", "direction must be 'cw' or 'ccw'")
        if kind == "state-at-time":
            check_fields(payload, ("dice",), ("direction",))
            held = payload["dice"]
            if not isinstance(held, Mapping) or not all(
                isinstance(name, str) and is_int(count) for name, count in held.items()
            ):
                raise RuleError("invalid-field", "dice maps each player to the number of dice they hold")
            return bidding.StateAtTime(tuple(held.items()), direction=direction)
        if kind == "outcome":
            check_fields(payload, ("call", "by"), ("loser", "exact", "against", "direction"))
            call = str_field(payload, "call")
            exact = payload.get("exact")
            if exact is not None and not isinstance(exact, bool):
                raise RuleError("invalid-field", "exact must be true or false")
            for name in ("loser", "against"):
                if payload.get(name) is not None:
                    str_field(payload, name)
            return bidding.RecordOutcome(
                call,  # type: ignore[arg-type]
                seat_field(payload, players),
                loser=payload.get("loser"),
                exact=exact,
                against=payload.get("against"),
                direction=direction,
            )
        if kind == "bid":
            check_fields(payload, ("by", "quantity", "face"), ("direction",))
            return bidding.PlaceBid(
                seat_field(payload, players),
                int_field(payload, "quantity"),
                int_field(payload, "face"),
                direction,
            )
        check_fields(payload, ("by",))
        return self.parse_command(seat_field(payload, players), {"type": kind}, None)  # type: ignore[arg-type]

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
        if known_strength(self, strength) == "reasoning":  # it thinks from its player's view only
            return reasoning_payload(bidding.view(state, Viewer.of_player(seat)), rng)
        return bidding_bot_payload(bidding.legal_actions(state, seat), rng)  # the view's `legal`

    def bot_payload_for_view(
        self, view: Mapping[str, Any], rng: BotRandom, strength: str = "random"
    ) -> dict[str, Any] | None:
        if view.get("physical"):
            return None
        if known_strength(self, strength) == "reasoning":
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
