"""Decide and evolve: commands in, events out (docs/rules.md §8, §9 P-3, §11 AL-1..AL-11)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from cacho.engine.alalay.at_time import end_at_time
from cacho.engine.alalay.commands import Abandon, Command, Reroll, Score, Scratch, Throw, TimeOut, TurnDie
from cacho.engine.alalay.endings import end_after_entry
from cacho.engine.alalay.events import (
    BoxScored,
    BoxScratched,
    DiceRerolled,
    DiceThrown,
    DieTurned,
    Entry,
    EntryAbandoned,
    Event,
    MatchEnded,
    MatchStarted,
    Options,
    TurnTimedOut,
)
from cacho.engine.alalay.policy import best_box, scratch_box
from cacho.engine.alalay.ruling_events import RULING_EVENTS
from cacho.engine.alalay.rulings import decide_ruling, evolve_ruling
from cacho.engine.alalay.scorecard import (
    BOX_INDEX,
    BOXES,
    DICE_COUNT,
    GRANDE_BOXES,
    Card,
    allowed_values,
    box_points,
    empty_card,
    has_four_in_every_number,
    has_panza_de_oro,
    is_five_of_a_kind,
    is_made_hand,
    is_valid_face,
    turned,
)
from cacho.engine.alalay.state import State, TurnState
from cacho.engine.errors import RuleError
from cacho.engine.rulings import Rule
from cacho.engine.undo import EntryUndone, Undo

# ---------------------------------------------------------------- starting


def start_match(
    entries: Sequence[Entry | str],
    options: Options | None = None,
    first: int = 0,
    cards: Mapping[str, Mapping[str, int | None]] | None = None,
) -> list[Event]:
    """The opening event of a match.

    `entries` in seat order (a plain name is a one-person entry); `first` is the
    seat that throws first (drawn at random by the shell, P-4); `cards` the boxes
    already filled (setup), by entry name then box id, 0 meaning scratched.
    """
    seated = tuple(Entry(e) if isinstance(e, str) else e for e in entries)
    if not seated:
        raise RuleError("no-entries", "a match needs at least one entry")
    names = [e.name for e in seated]
    if any(not name for name in names) or len(set(names)) != len(names):
        raise RuleError("invalid-entries", "entry names must be unique and non-empty")
    for entry in seated:
        if len(set(entry.members)) != len(entry.members) or any(not m for m in entry.members):
            raise RuleError("invalid-members", f"members of {entry.name} must be unique and non-empty")
    if not 0 <= first < len(seated):
        raise RuleError("invalid-first", f"first seat {first} is not a seat")
    built: list[Card] = []
    given = cards or {}
    for name in given:
        if name not in names:
            raise RuleError("unknown-entry", f"setup card for unknown entry {name!r}")
    for name in names:
        card = list(empty_card())
        for box, value in (given.get(name) or {}).items():
            if box not in BOX_INDEX:
                raise RuleError("unknown-box", f"unknown box {box!r}")
            if value is not None and value != 0 and value not in allowed_values(box):
                raise RuleError("invalid-setup-card", f"{box} cannot hold {value}")
            card[BOX_INDEX[box]] = value
        built.append(tuple(card))
    event = MatchStarted(seated, options or Options(), tuple(built), first)
    state = initial_state(event)
    if state.over:
        raise RuleError("setup-match-over", "the setup cards already end the match")
    return [event]


def initial_state(event: MatchStarted) -> State:
    count = len(event.entries)
    state = State(
        entries=event.entries,
        options=event.options,
        cards=event.cards,
        left=(False,) * count,
        turns_played=(0,) * count,
        turn=None,
        timeouts=(0,) * count,
        physical=event.physical,
    )
    for seat in range(count):
        card = state.cards[seat]
        if has_panza_de_oro(card) or has_four_in_every_number(card):
            return replace(state, over=True)
    turn = state.next_turn(event.first, include_self=True)
    if turn is None:
        return replace(state, over=True)
    return replace(state, turn=turn)


def new_match(
    entries: Sequence[Entry | str],
    options: Options | None = None,
    first: int = 0,
    cards: Mapping[str, Mapping[str, int | None]] | None = None,
) -> tuple[State, list[Event]]:
    """`start_match` and its state."""
    events = start_match(entries, options, first, cards)
    return replay(events), events


# ---------------------------------------------------------------- evolve


def _seat(state: State, name: str) -> int:
    seat = state.seat_of(name)
    if seat is None:
        raise ValueError(f"event for unknown entry {name!r}")
    return seat


def _current(state: State) -> TurnState:
    if state.turn is None:
        raise ValueError("event outside a turn")
    return state.turn


def _fill(state: State, seat: int, box: str, value: int) -> State:
    card = state.cards[seat]
    card = (*card[: BOX_INDEX[box]], value, *card[BOX_INDEX[box] + 1 :])
    cards = (*state.cards[:seat], card, *state.cards[seat + 1 :])
    played = (*state.turns_played[:seat], state.turns_played[seat] + 1, *state.turns_played[seat + 1 :])
    timed_out = state.turn is not None and state.turn.timed_out
    in_a_row = state.timeouts[seat] + 1 if timed_out else 0
    timeouts = (*state.timeouts[:seat], in_a_row, *state.timeouts[seat + 1 :])
    filled = (*state.filled, (seat, box))
    moved = replace(state, cards=cards, turns_played=played, timeouts=timeouts, filled=filled)
    return replace(moved, turn=moved.next_turn(seat))


def evolve(state: State, event: Event) -> State:
    """The state after `event` (events are facts: no rule is checked here)."""
    if not state.physical:
        return _evolve(state, event)
    # At a physical table an entry keeps the state before it, which `EntryUndone` gives back;
    # a match's end comes with the entry that ended it, and nothing before a ruling is undone.
    if isinstance(event, EntryUndone):
        if state.undo is None:
            raise ValueError("entry_undone with no entry to undo")
        return state.undo
    after = _evolve(state, event)
    if isinstance(event, RULING_EVENTS):
        return replace(after, undo=None) if after.undo is not None else after
    if isinstance(event, MatchEnded):
        return after
    return replace(after, undo=replace(state, undo=None) if state.undo is not None else state)


def _evolve(state: State, event: Event) -> State:
    if isinstance(event, DieTurned):
        turn = _current(state)
        pos = event.position
        dice = (*turn.dice[:pos], turned(turn.dice[pos]), *turn.dice[pos + 1 :])
        return replace(state, turn=replace(turn, dice=dice, turned=(*turn.turned, pos)))
    if isinstance(event, DiceThrown):
        return replace(
            state, turn=replace(_current(state), phase="first", dice=event.dice, first_throw=event.dice)
        )
    if isinstance(event, DiceRerolled):
        dice = event.keep + event.dice
        full = not event.keep
        made = is_made_hand(dice)
        exempt = made and (full or state.options.turn_exempt_if_made_hand)
        turn = replace(_current(state), phase="second", dice=dice, full_reroll=full, exempt=exempt)
        return replace(state, turn=turn)
    if isinstance(event, BoxScored):
        return _fill(state, _seat(state, event.entry), event.box, event.points)
    if isinstance(event, BoxScratched):
        return _fill(state, _seat(state, event.entry), event.box, 0)
    if isinstance(event, TurnTimedOut):
        return replace(state, turn=replace(_current(state), timed_out=True))
    if isinstance(event, EntryAbandoned):
        seat = _seat(state, event.entry)
        left = (*state.left[:seat], True, *state.left[seat + 1 :])
        moved = replace(state, left=left)
        if state.turn is not None and state.turn.seat == seat:
            moved = replace(moved, turn=moved.next_turn(seat))
        return moved
    if isinstance(event, MatchEnded):
        return replace(state, over=True, turn=None, winners=event.winners, win_reason=event.reason)
    if isinstance(event, RULING_EVENTS):
        return evolve_ruling(state, event)
    raise ValueError("match_started only opens a match: use replay() or initial_state()")


def replay(events: Iterable[Event]) -> State:
    """Fold a match's events (the first is MatchStarted) into its state."""
    iterator = iter(events)
    first = next(iterator, None)
    if not isinstance(first, MatchStarted):
        raise ValueError("a match's events begin with match_started")
    state = initial_state(first)
    for event in iterator:
        state = evolve(state, event)
    return state


# ---------------------------------------------------------------- decide


def _check_dice(dice: Sequence[object], count: int | None = DICE_COUNT) -> None:
    for value in dice:
        if not is_valid_face(value):
            raise RuleError("invalid-die", f"{value!r} is not a die face (1-6)")
    if count is not None and len(dice) != count:
        raise RuleError("wrong-dice-count", f"a throw has {count} dice, not {len(dice)}")


def _with_end(state: State, events: list[Event], seat: int) -> list[Event]:
    after = state
    for event in events:
        after = evolve(after, event)
    ended = end_after_entry(after, seat)
    if ended is None:
        ended = end_at_time(after)  # docs/rules.md §9.1: after the turn owed, at time
    return [*events, ended] if ended is not None else events


def _box_to_fill(state: State, seat: int, box: str) -> str:
    """The box a score or scratch fills; `grande`, `grande_1` and `grande_2` mean the first free grande."""
    if box == "grande" or box in GRANDE_BOXES:
        card = state.cards[seat]
        free = [b for b in GRANDE_BOXES if card[BOX_INDEX[b]] is None]
        if not free:
            raise RuleError("box-not-open", "both grande boxes are filled")
        return free[0]
    if box not in BOX_INDEX:
        raise RuleError("unknown-box", f"unknown box {box!r}")
    if state.cards[seat][BOX_INDEX[box]] is not None:
        raise RuleError("box-not-open", f"{box} is already filled")
    return box


def _open_scores(state: State, seat: int, turn: TurnState) -> list[tuple[str, int]]:
    de_mano = turn.de_mano
    return [
        (box, box_points(box, turn.dice, de_mano))
        for box, value in zip(BOXES, state.cards[seat], strict=False)
        if value is None
    ]


def _open_boxes(state: State, seat: int) -> list[str]:
    return [box for box, value in zip(BOXES, state.cards[seat], strict=False) if value is None]


def _check_auto_play_box(box: str, chosen: str | None) -> None:
    """A timed-out turn is the server's to finish (§9 P-2): it fills the policy's box only."""
    if box != chosen:
        raise RuleError("auto-play-box", f"a timed-out turn fills {chosen}, not {box}")


def decide(state: State, command: Command | Rule) -> list[Event]:
    """The events `command` causes, or RuleError with a stable code (state is never changed)."""
    if isinstance(command, Rule):
        return decide_ruling(state, command)
    if state.paused is not None:
        raise RuleError("match-paused", f"the match is paused: {state.paused}")
    if isinstance(command, Undo):
        if not state.physical:
            raise RuleError("undo-not-physical", "only a physical table's entries are undone")
        if state.undo is None:
            raise RuleError("nothing-to-undo", "only the last entry can be undone, once, until the next one")
        return [EntryUndone()]
    if state.over:
        raise RuleError("match-over", "the match is over")
    seat = state.seat_of(command.entry)
    if seat is None:
        raise RuleError("unknown-entry", f"{command.entry!r} is not seated in this match")
    if state.left[seat]:
        raise RuleError("entry-left", f"{command.entry} has left the match")
    if isinstance(command, Abandon):
        return _with_end(state, [EntryAbandoned(command.entry)], -1)
    turn = state.turn
    if turn is None or turn.seat != seat:
        raise RuleError("not-your-turn", f"it is not {command.entry}'s turn")
    if isinstance(command, TimeOut):
        if state.physical and command.at is not None:
            # no clock runs at a physical table; a record may still state a past timeout
            raise RuleError("timeout-at-physical-table", "a physical table has no clock: nobody times out")
        if turn.timed_out:
            raise RuleError("already-timed-out", "this turn already timed out")
        return [TurnTimedOut(command.entry)]
    if isinstance(command, Throw):
        if turn.phase != "await":
            raise RuleError("already-thrown", "the first throw of this turn is done")
        _check_dice(command.dice)
        dice = tuple(command.dice)
        events: list[Event] = [DiceThrown(command.entry, turn.member, dice)]
        if is_five_of_a_kind(dice):
            events.append(MatchEnded((command.entry,), "dormida"))
        return events
    if turn.phase == "await":
        raise RuleError("throw-required", "throw the five dice first")
    if isinstance(command, Reroll):
        if turn.phase != "first":
            raise RuleError("already-rerolled", "there is only one re-roll")
        _check_dice(command.keep, None)
        _check_dice(command.dice, None)
        if len(command.keep) + len(command.dice) != DICE_COUNT:
            raise RuleError(
                "wrong-dice-count", f"kept {len(command.keep)} and threw {len(command.dice)}: not five dice"
            )
        if not command.dice:
            raise RuleError("nothing-rerolled", "a re-roll throws 1 to 5 dice")
        if Counter(command.keep) - Counter(turn.first_throw):
            raise RuleError(
                "kept-dice-not-thrown", f"{list(command.keep)} were not all in {list(turn.first_throw)}"
            )
        keep, rolled = tuple(command.keep), tuple(command.dice)
        events = [DiceRerolled(command.entry, keep, rolled)]
        if not keep and is_five_of_a_kind(rolled) and state.options.dormida_on_full_reroll:
            events.append(MatchEnded((command.entry,), "dormida"))
        return events
    if isinstance(command, TurnDie):
        if turn.phase != "second":
            raise RuleError("turn-without-reroll", "dice are turned only after the second throw")
        pos = command.position
        if isinstance(pos, bool) or not isinstance(pos, int) or not 0 <= pos < DICE_COUNT:
            raise RuleError("invalid-position", f"{pos!r} is not a die position (0-4)")
        if pos in turn.turned:
            raise RuleError("die-already-turned", f"the die at {pos} was already turned")
        if len(turn.turned) >= 2:
            raise RuleError("too-many-turns", "at most two dice are turned")
        return [DieTurned(command.entry, pos)]
    if isinstance(command, Score):
        box = _box_to_fill(state, seat, command.box)
        if turn.must_turn:
            raise RuleError("turn-required", "one die must be turned after the second throw")
        points = box_points(box, turn.dice, turn.de_mano)
        if points <= 0:
            raise RuleError("score-is-zero", f"{box} is worth 0 with {list(turn.dice)}: that is a scratch")
        if turn.timed_out:
            best = best_box(_open_boxes(state, seat), turn.dice, turn.de_mano)
            _check_auto_play_box(box, None if best is None else best[0])
        return _with_end(state, [BoxScored(command.entry, box, points, turn.de_mano)], seat)
    if isinstance(command, Scratch):
        box = _box_to_fill(state, seat, command.box)
        if turn.phase == "first":
            raise RuleError("scratch-not-allowed", "no scratch after the first throw")
        if turn.must_turn:
            raise RuleError("turn-required", "one die must be turned after the second throw")
        scoring = [b for b, points in _open_scores(state, seat, turn) if points > 0]
        if scoring:
            raise RuleError("scratch-not-allowed", f"{scoring[0]} scores with {list(turn.dice)}")
        if turn.timed_out:
            _check_auto_play_box(box, scratch_box(_open_boxes(state, seat)))
        return _with_end(state, [BoxScratched(command.entry, box)], seat)
    raise RuleError("unknown-command", f"unknown command {command!r}")


def apply(state: State, command: Command | Rule) -> tuple[State, list[Event]]:
    """decide, then evolve: the new state and the events to store."""
    events = decide(state, command)
    for event in events:
        state = evolve(state, event)
    return state, events


def open_scores(state: State, entry: str) -> list[tuple[str, int]]:
    """Each open box of `entry` with the points it gives with the current dice (empty outside its turn)."""
    seat = state.seat_of(entry)
    turn = state.turn
    if seat is None or turn is None or turn.seat != seat or turn.phase == "await":
        return []
    return _open_scores(state, seat, turn)


__all__ = [
    "apply",
    "decide",
    "evolve",
    "initial_state",
    "new_match",
    "open_scores",
    "replay",
    "start_match",
]
