"""Automatic play for a timed-out turn (docs/rules.md §9, decision P-2).

The engine never rolls dice. `auto_play(state)` returns the *next step* of the
turn on the clock: either a complete command, or a `RollRequest` when the next
command needs dice (throw 1, or "re-roll all five"); the shell rolls
`request.count` dice and applies `request.fill(dice)`. Repeat until the turn
ends, or use `auto_play_turn(state, roll)` which does the loop with a dice
source (`roll(n)` returns n dice) and first records the timeout.

Policy: keep the throw and score the highest-scoring open box; where a turn is
compulsory, turn the single die giving the highest-scoring open box, no second
turn; when it must, scratch the lowest-value open box by maximum score. After
throw 1, where no box scores (scratching is then illegal), re-roll all five
dice. Ties follow the box order of §8; for turns, the lowest die position.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cacho.engine.alalay.commands import Command, Reroll, Score, Scratch, Throw, TimeOut, TurnDie
from cacho.engine.alalay.events import Event
from cacho.engine.alalay.policy import best_box, best_turn, scratch_box
from cacho.engine.alalay.rules import apply
from cacho.engine.alalay.scorecard import BOXES, DICE_COUNT
from cacho.engine.alalay.state import State, TurnState


@dataclass(frozen=True)
class RollRequest:
    """The next auto-play command needs `count` fresh dice: a throw 1 or a re-roll of all five."""

    entry: str
    reroll: bool
    keep: tuple[int, ...] = ()
    count: int = DICE_COUNT

    def fill(self, dice: Sequence[int]) -> Throw | Reroll:
        if self.reroll:
            return Reroll(self.entry, self.keep, tuple(dice))
        return Throw(self.entry, tuple(dice))


AutoStep = Command | RollRequest


def _open(state: State, turn: TurnState) -> list[str]:
    return [box for box, value in zip(BOXES, state.cards[turn.seat], strict=False) if value is None]


def auto_play(state: State) -> AutoStep | None:
    """The server's next step for the turn in progress (None when no turn is in progress)."""
    turn = state.turn
    if turn is None or state.over:
        return None
    entry = state.entries[turn.seat].name
    if turn.phase == "await":
        return RollRequest(entry, reroll=False)
    boxes = _open(state, turn)
    if turn.phase == "first":
        best = best_box(boxes, turn.dice, True)
        if best is not None and best[1] > 0:
            return Score(entry, best[0])
        return RollRequest(entry, reroll=True)
    if turn.must_turn:
        return TurnDie(entry, best_turn(boxes, turn.dice))
    best = best_box(boxes, turn.dice, turn.de_mano)
    if best is not None and best[1] > 0:
        return Score(entry, best[0])
    return Scratch(entry, scratch_box(boxes))


def auto_play_turn(state: State, roll: Callable[[int], Sequence[int]]) -> tuple[State, list[Event]]:
    """Time out the turn in progress and finish it by `auto_play`; `roll(n)` supplies dice."""
    turn = state.turn
    if turn is None or state.over:
        return state, []
    seat = turn.seat
    entry = state.entries[seat].name
    played = state.turns_played[seat]
    events: list[Event] = []
    if not turn.timed_out:
        state, events = apply(state, TimeOut(entry))
    while (
        not state.over
        and state.turn is not None
        and state.turn.seat == seat
        and state.turns_played[seat] == played
    ):
        step = auto_play(state)
        assert step is not None
        command = step.fill(roll(step.count)) if isinstance(step, RollRequest) else step
        state, more = apply(state, command)
        events += more
    return state, events
