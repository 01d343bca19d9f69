"""A referee's rulings in an Alalay match (docs/engine.md, "Rulings"): which are legal
now, the facts they leave, and how those change the state. Illegal ones raise
RuleError with a `ruling-` code."""

from __future__ import annotations

from dataclasses import replace

from cacho.engine.alalay.at_time import AT_TIME, check_call, ranked_at_time, with_time_called
from cacho.engine.alalay.endings import end_after_entry
from cacho.engine.alalay.events import Event, MatchEnded
from cacho.engine.alalay.ruling_events import (
    EntryDisqualified,
    MatchPaused,
    MatchReopened,
    MatchResumed,
    PenaltyGiven,
    ResultAwarded,
    RulingUpheld,
    TimeCalled,
    TurnCorrected,
)
from cacho.engine.alalay.scorecard import BOX_INDEX, GRANDE_BOXES, allowed_values
from cacho.engine.alalay.state import State
from cacho.engine.errors import RuleError
from cacho.engine.rulings import Rule, check_pausable, check_placements, check_resumable, not_in_game, seat_of


def _names(state: State) -> tuple[str, ...]:
    return tuple(entry.name for entry in state.entries)


def decide_ruling(state: State, rule: Rule) -> list[Event]:
    kind = rule.kind
    if kind == "uphold":
        return [RulingUpheld(rule.reason)]
    if kind == "pause":
        check_pausable(state.over, state.paused)
        return [MatchPaused(rule.reason)]
    if kind == "resume":
        check_resumable(state.paused)
        return [MatchResumed(rule.reason)]
    if kind == "award-result":
        places = check_placements(rule, _names(state))
        return [ResultAwarded(tuple(zip(_names(state), places, strict=True)), rule.reason)]
    if kind == "correct-turn":
        correction = _correction(state, rule)
        return _rescored(state, correction, _names(state).index(correction.entry))
    if kind == "penalty":
        if rule.has("dice"):
            raise not_in_game(rule, "alalay")
        seat = seat_of(_names(state), rule.get("seat"))
        points = rule.get("points")
        if points is None or points < 1:
            raise RuleError("ruling-points-invalid", "a penalty deducts 1 point or more")
        return _rescored(state, PenaltyGiven(_names(state)[seat], points, rule.reason), -1)
    if kind == "disqualify":
        seat = seat_of(_names(state), rule.get("seat"))
        if state.over:
            raise RuleError("ruling-match-over", "the match is over: reopen it first")
        if state.left[seat]:
            raise RuleError("ruling-seat-out", f"{_names(state)[seat]} is out of the match already")
        event = EntryDisqualified(_names(state)[seat], rule.reason)
        ended = end_after_entry(evolve_ruling(state, event), -1)
        return [event] if ended is None else [event, ended]
    if kind == "reopen":
        if rule.has("round"):
            raise not_in_game(rule, "alalay")
        number = rule.get("turn")
        if number is None:
            raise RuleError("ruling-field-missing", "reopen needs the turn to replay from")
        _turn_index(state, number)
        return [MatchReopened(number, rule.reason)]
    if kind == "call-time":
        return [TimeCalled(check_call(state, rule), rule.reason)]
    raise not_in_game(rule, "alalay")


def _turn_index(state: State, number: int) -> int:
    if not 1 <= number <= len(state.filled):
        raise RuleError(
            "ruling-turn-unknown", f"turn {number} was not played (turns 1 to {len(state.filled)})"
        )
    return number - 1


def _correction(state: State, rule: Rule) -> TurnCorrected:
    number = rule.get("turn")
    seat, replaced = state.filled[_turn_index(state, number)]
    box = rule.get("box")
    if box != "grande" and box not in BOX_INDEX:
        raise RuleError("ruling-box-unknown", f"unknown box {box!r}")
    card = state.cards[seat]
    if box in ("grande", *GRANDE_BOXES):
        free = [b for b in GRANDE_BOXES if b == replaced or card[BOX_INDEX[b]] is None]
        if not free:
            raise RuleError("ruling-box-not-open", "both grande boxes are filled by other turns")
        box = replaced if replaced in GRANDE_BOXES else free[0]
    if box != replaced and card[BOX_INDEX[box]] is not None:
        raise RuleError("ruling-box-not-open", f"{box} is filled by another turn")
    if rule.has("points") == rule.has("scratch"):
        raise RuleError("ruling-field-missing", "correct-turn takes points or scratch: true")
    points = 0 if rule.has("scratch") else rule.get("points")
    if points != 0 and points not in allowed_values(box):
        raise RuleError("ruling-points-invalid", f"{box} cannot hold {points}")
    return TurnCorrected(number, _names(state)[seat], replaced, box, points, rule.reason)


def _rescored(state: State, event: TurnCorrected | PenaltyGiven, seat: int) -> list[Event]:
    """The ruling, and the match's end again where it changes the outcome: a live match a
    correction completes, or a match finished on points (or at time) whose winners change."""
    after = evolve_ruling(state, event)
    ended: MatchEnded | None = None
    if not state.over:
        ended = end_after_entry(after, seat)
    elif state.win_reason in ("points", AT_TIME):
        # A table decided at time ranks on its totals as one played out does (T-5).
        ended = ranked_at_time(after) if state.win_reason == AT_TIME else end_after_entry(after, -1)
        if ended is not None and ended.winners == state.winners:
            ended = None
    return [event] if ended is None else [event, ended]


# ---------------------------------------------------------------- evolve


def evolve_ruling(state: State, event: object) -> State:
    """The state after a ruling `event` (ValueError for any other event)."""
    if isinstance(event, MatchPaused):
        return replace(state, paused=event.reason)
    if isinstance(event, MatchResumed):
        return replace(state, paused=None)
    if isinstance(event, RulingUpheld):
        return state
    if isinstance(event, TurnCorrected):
        seat = _names(state).index(event.entry)
        card = list(state.cards[seat])
        card[BOX_INDEX[event.replaced]] = None
        card[BOX_INDEX[event.box]] = event.points
        cards = (*state.cards[:seat], tuple(card), *state.cards[seat + 1 :])
        index = event.turn - 1
        filled = (*state.filled[:index], (seat, event.box), *state.filled[index + 1 :])
        return replace(state, cards=cards, filled=filled)
    if isinstance(event, PenaltyGiven):
        seat = _names(state).index(event.entry)
        penalties = list(state.penalties or (0,) * len(state.entries))
        penalties[seat] += event.points
        return replace(state, penalties=tuple(penalties))
    if isinstance(event, EntryDisqualified):
        seat = _names(state).index(event.entry)
        left = (*state.left[:seat], True, *state.left[seat + 1 :])
        moved = replace(state, left=left, disqualified=state.disqualified | {seat})
        if state.turn is not None and state.turn.seat == seat:
            moved = replace(moved, turn=moved.next_turn(seat))
        return moved
    if isinstance(event, ResultAwarded):
        places = tuple(place for _, place in event.placements)
        winners = tuple(name for name, place in event.placements if place == 1)
        return replace(state, over=True, turn=None, winners=winners, win_reason="awarded", awarded=places)
    if isinstance(event, MatchReopened):
        return _reopened(state, event.turn - 1)
    if isinstance(event, TimeCalled):
        return with_time_called(state, event.policy)
    raise ValueError(f"not a ruling event: {event!r}")


def _reopened(state: State, index: int) -> State:
    """The boxes of turns `index` on open again; play resumes with turn `index`'s entry."""
    cards = [list(card) for card in state.cards]
    played = list(state.turns_played)
    for seat, box in state.filled[index:]:
        cards[seat][BOX_INDEX[box]] = None
        played[seat] -= 1
    first = state.filled[index][0]
    moved = replace(
        state,
        cards=tuple(tuple(card) for card in cards),
        turns_played=tuple(played),
        filled=state.filled[:index],
        turn=None,
        over=False,
        winners=(),
        win_reason=None,
        awarded=None,
        timeouts=(0,) * len(state.entries),
        reopened=state.reopened + 1,
    )
    return replace(moved, turn=moved.next_turn(first, include_self=True))
