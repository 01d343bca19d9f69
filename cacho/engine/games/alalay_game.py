"""The adapter of Cacho Alalay (`GAMES["alalay"]`), played by `cacho.engine.alalay`."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from cacho.engine import alalay, timers
from cacho.engine.alalay import at_time as alalay_at_time
from cacho.engine.alalay.bots import bot_payload as alalay_bot_payload
from cacho.engine.alalay.record import parse_record as parse_alalay_record
from cacho.engine.alalay.record import ruling_of as alalay_record_ruling
from cacho.engine.alalay.results import match_results as alalay_results
from cacho.engine.alalay.scorecard import GRANDE_BOXES
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
from cacho.engine.traits import ALALAY, TableLine, alalay_line
from cacho.engine.undo import Undo
from cacho.engine.viewer import Viewer

BOX_NAMES = (*alalay.BOXES, "grande")
# A corrected turn names "grande" for either grande box (the free one, or the one replaced).
RULING_BOXES = tuple(box for box in BOX_NAMES if box not in GRANDE_BOXES)


class AlalayGame(EngineGame):
    name = "alalay"
    engine = alalay
    traits = ALALAY
    time_policies: tuple[str, ...] = alalay_at_time.POLICIES
    bot_strengths: tuple[str, ...] = ("random",)  # its one policy (alalay/bots.py)
    ruling_kinds = frozenset(KINDS) - {"void-round", "adjust-dice"}
    ruling_fields: Mapping[str, tuple[str, ...]] = {
        "uphold": (),
        "correct-turn": ("turn", "box", "points", "scratch"),
        "award-result": ("placements",),
        "penalty": ("seat", "points"),
        "disqualify": ("seat",),
        "reopen": ("turn",),
    }
    ruling_choices: Mapping[str, tuple[str, ...]] = {"box": RULING_BOXES}

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
        kind = command_type(payload, ("throw", "reroll", "turn", "score", "scratch", "abandon"))
        if kind == "throw":
            check_fields(payload, ())
            return self._roll(seat, alalay.RollRequest(seat, reroll=False))
        if kind == "reroll":
            check_fields(payload, ("keep",))
            keep = payload["keep"]
            if not isinstance(keep, list) or not all(is_int(die) for die in keep):
                raise RuleError("invalid-field", "keep must be a list of dice")
            if len(keep) > 4:
                raise RuleError("nothing-rerolled", "a re-roll throws 1 to 5 dice")
            request = alalay.RollRequest(seat, reroll=True, keep=tuple(keep), count=5 - len(keep))
            return self._roll(seat, request)
        if kind == "turn":
            check_fields(payload, ("position",))
            return alalay.TurnDie(seat, int_field(payload, "position"))
        if kind in ("score", "scratch"):
            check_fields(payload, ("box",))
            box = str_field(payload, "box")
            if box not in BOX_NAMES:
                raise RuleError("unknown-box", f"unknown box {box!r}")
            return alalay.Score(seat, box) if kind == "score" else alalay.Scratch(seat, box)
        check_fields(payload, ())
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
            raise not_physical()
        kind = command_type(payload, ("throw", "reroll", "turn", "score", "scratch", "abandon", "undo"))
        if kind == "undo":
            check_fields(payload, ())
            return Undo()
        entries = self.seats(state)
        if kind == "throw":
            check_fields(payload, ("by", "dice"))
            return alalay.Throw(seat_field(payload, entries), dice_field(payload, "dice"))
        if kind == "reroll":
            check_fields(payload, ("by", "keep", "dice"))
            keep = dice_field(payload, "keep")
            return alalay.Reroll(seat_field(payload, entries), keep, dice_field(payload, "dice"))
        check_fields(payload, ("by",), ("position", "box"))
        by = seat_field(payload, entries)
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
        known_strength(self, strength)
        if state.physical:
            return None  # nobody plays for an entry at a physical table
        return alalay_bot_payload(alalay.view(state, Viewer.of_player(seat)), rng)

    def bot_payload_for_view(
        self, view: Mapping[str, Any], rng: BotRandom, strength: str = "random"
    ) -> dict[str, Any] | None:
        known_strength(self, strength)
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
