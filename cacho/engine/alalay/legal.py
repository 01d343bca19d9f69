"""What an entry may do now: the legal commands of its turn and the scoresheet hint."""

from __future__ import annotations

from dataclasses import dataclass, replace

from cacho.engine.alalay.commands import Abandon, Command, Score, Scratch, TimeOut, TurnDie
from cacho.engine.alalay.rules import open_scores
from cacho.engine.alalay.scorecard import DICE_COUNT
from cacho.engine.alalay.state import Phase, State


@dataclass(frozen=True)
class LegalActions:
    """The legal moves of `entry` now.

    `throw`/`reroll` need dice (from the server's roll or a scorekeeper): build
    `Throw(entry, dice)` / `Reroll(entry, keep, dice)` with any kept sub-multiset
    of the first throw and 1-5 new dice. `hints` gives, for the current dice, the
    points each open box would give if scored now (0: scratch only), box order.
    """

    entry: str
    on_turn: bool
    member: str | None = None
    phase: Phase | None = None
    dice: tuple[int, ...] = ()
    throw: bool = False
    reroll: bool = False
    turn_positions: tuple[int, ...] = ()
    must_turn: bool = False
    de_mano: bool = False
    score: tuple[str, ...] = ()
    scratch: tuple[str, ...] = ()
    hints: tuple[tuple[str, int], ...] = ()
    abandon: bool = False
    time_out: bool = False

    def commands(self) -> list[Command]:
        """The legal commands that need no dice."""
        out: list[Command] = [TurnDie(self.entry, pos) for pos in self.turn_positions]
        out += [Score(self.entry, box) for box in self.score]
        out += [Scratch(self.entry, box) for box in self.scratch]
        if self.time_out:
            out.append(TimeOut(self.entry))
        if self.abandon:
            out.append(Abandon(self.entry))
        return out


def _without_second_grande(hints: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
    """A score or scratch of a grande fills the first free grande box: list only that one."""
    if any(box == "grande_1" for box, _ in hints):
        return tuple(hint for hint in hints if hint[0] != "grande_2")
    return hints


def legal_actions(state: State, entry: str) -> LegalActions:
    seat = state.seat_of(entry)
    if state.over or seat is None or state.left[seat] or state.paused is not None:
        return LegalActions(entry, on_turn=False)  # a paused match takes no player's command
    turn = state.turn
    if turn is None or turn.seat != seat:
        return LegalActions(entry, on_turn=False, abandon=True)
    base = LegalActions(
        entry,
        True,
        member=turn.member,
        phase=turn.phase,
        dice=turn.dice,
        abandon=True,
        time_out=not turn.timed_out,
    )
    if turn.phase == "await":
        return replace(base, throw=True)
    hints = tuple(open_scores(state, entry))
    choosable = _without_second_grande(hints)
    scoring = tuple(box for box, points in choosable if points > 0)
    if turn.phase == "first":
        return replace(base, reroll=True, score=scoring, hints=hints, de_mano=True)
    positions: tuple[int, ...] = ()
    if len(turn.turned) < 2:
        positions = tuple(p for p in range(DICE_COUNT) if p not in turn.turned)
    if turn.must_turn:
        return replace(base, turn_positions=positions, must_turn=True, hints=hints, de_mano=turn.de_mano)
    scratch = () if scoring else tuple(box for box, _ in choosable)
    return replace(
        base, turn_positions=positions, score=scoring, scratch=scratch, hints=hints, de_mano=turn.de_mano
    )
