"""A referee's rulings in a bidding match (docs/engine.md, "Rulings"): which are legal
now, and the facts they leave. Illegal ones raise RuleError with a `ruling-` code."""

from __future__ import annotations

from cacho.engine.bidding.at_time import call_time, followed, state_at_time
from cacho.engine.bidding.commands import Abandon, Command, RecordOutcome, StateAtTime
from cacho.engine.bidding.decide import decide as decide_play
from cacho.engine.bidding.decide import restart_mode, seat_turn_seconds
from cacho.engine.bidding.events import Event
from cacho.engine.bidding.outcomes import abandon_between_rounds, record_outcome, undo
from cacho.engine.bidding.rules import MAX_DICE, Mode
from cacho.engine.bidding.ruling_events import (
    DiceChanged,
    MatchPaused,
    MatchResumed,
    ResultAwarded,
    RoundVoided,
    RulingUpheld,
)
from cacho.engine.bidding.state import MatchState, next_live
from cacho.engine.errors import RuleError
from cacho.engine.rulings import Rule, check_pausable, check_placements, check_resumable, not_in_game, seat_of
from cacho.engine.undo import Undo


def decide(state: MatchState, command: Command | Rule) -> list[Event]:
    """Every command of a bidding match: a player's, the server's, or a referee's ruling
    (a director's time call among them); once time is called, with what it draws."""
    return followed(state, _decide(state, command))


def _decide(state: MatchState, command: Command | Rule) -> list[Event]:
    if isinstance(command, Rule):
        return decide_ruling(state, command)
    if state.config.physical:  # a physical table's own entries (bidding/outcomes.py)
        if isinstance(command, RecordOutcome):
            return [record_outcome(state, command)]
        if isinstance(command, Undo):
            return undo(state, command)
        if isinstance(command, StateAtTime):
            return [state_at_time(state, command)]
        if isinstance(command, Abandon) and state.round is None and state.phase != "over":
            return [abandon_between_rounds(state, command)]
    elif isinstance(command, RecordOutcome | StateAtTime):
        raise RuleError("outcome-not-physical", "a round's outcome is entered only at a physical table")
    elif isinstance(command, Undo):
        raise RuleError("undo-not-physical", "only a physical table's entries are undone")
    return decide_play(state, command)


def decide_ruling(state: MatchState, rule: Rule) -> list[Event]:
    kind = rule.kind
    over = state.phase == "over"
    if kind == "uphold":
        return [RulingUpheld(rule.reason)]
    if kind == "pause":
        check_pausable(over, state.paused)
        return [MatchPaused(rule.reason)]
    if kind == "resume":
        check_resumable(state.paused)
        deadline = None
        if state.round is not None and rule.at is not None:
            deadline = rule.at + seat_turn_seconds(state, state.round.to_act) * 1000
        return [MatchResumed(rule.reason, deadline)]
    if kind == "award-result":
        places = check_placements(rule, state.config.players)
        return [ResultAwarded(tuple(zip(state.config.players, places, strict=True)), rule.reason)]
    if kind in ("void-round", "reopen"):
        return [_void(state, rule)]
    if kind == "call-time":
        return call_time(state, rule)
    if kind in ("adjust-dice", "penalty", "disqualify"):
        if over:
            raise RuleError("ruling-match-over", "the match is over: reopen it first")
        return [_dice_changed(state, rule)]
    raise not_in_game(rule, state.rules.ruleset)


def _void(state: MatchState, rule: Rule) -> RoundVoided:
    reopening = rule.kind == "reopen"
    if reopening and rule.has("turn"):
        raise not_in_game(rule, state.rules.ruleset)
    number = rule.get("round")
    if number is None:
        raise RuleError("ruling-field-missing", "reopen needs the round to reopen from")
    over = state.phase == "over"
    if over and not reopening:
        raise RuleError("ruling-match-over", "the match is over: reopen it")
    if reopening and not over:
        raise RuleError("ruling-match-not-over", "the match is live: void the round instead")
    if all(start.number != number for start in state.table.round_starts):
        raise RuleError("ruling-round-unknown", f"round {number} was not played (or is void already)")
    return RoundVoided(number, rule.reason, reopening)


def _dice_changed(state: MatchState, rule: Rule) -> DiceChanged:
    players = state.config.players
    name = rule.get("player") if rule.kind == "adjust-dice" else rule.get("seat")
    seat = seat_of(players, name)
    held = state.dice_counts[seat]
    if held == 0:
        raise RuleError("ruling-player-out", f"{name} holds no dice")
    if rule.kind == "adjust-dice":
        delta = rule.get("delta")
        if delta == 0 or not 0 <= held + delta <= MAX_DICE:
            raise RuleError("ruling-dice-out-of-range", f"{name} holds {held} dice: {delta:+d} is not 0 to 5")
    elif rule.kind == "penalty":
        if rule.has("points"):
            raise not_in_game(rule, state.rules.ruleset)
        removed = rule.get("dice")
        if removed is None or not 1 <= removed <= held:
            raise RuleError("ruling-dice-out-of-range", f"{name} holds {held} dice: remove 1 to {held}")
        delta = -removed
    else:
        delta = -held
    counts = list(state.dice_counts)
    counts[seat] += delta
    after = tuple(counts)
    live = [index for index, count in enumerate(after) if count > 0]
    winner = players[live[0]] if len(live) == 1 else None
    next_starter: str | None = None
    next_mode: Mode | None = None
    if winner is None:
        current = state.round
        starter = current.starter if current is not None else state.next_starter
        mode = current.mode if current is not None else state.next_mode
        assert starter is not None
        if after[starter] == 0:
            starter = next_live(after, starter, state.direction)
        next_starter = players[starter]
        next_mode = restart_mode(state.rules, mode, after)
    rules = state.rules
    calzo_disabled = rules.calza_threshold and (
        state.calzo_disabled or sum(after) < rules.calzo_threshold(state.config.initial_players)
    )
    return DiceChanged(
        rule.kind, name, delta, rule.reason, next_starter, next_mode, bool(calzo_disabled), winner
    )
