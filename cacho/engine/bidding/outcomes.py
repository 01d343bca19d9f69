"""A physical table's entries that online play does not have (docs/engine.md, "Physical
tables"): a round entered by its outcome, an abandonment between rounds, and the undo of
the last entry.

An outcome names the call that ended the round (dudo, calza, a doubted paso, a denied
salpicón), who made it and who lost the die (or whether the calza was exact). No die is
known, so the engine checks what the dice counts, the round's mode and the seats decide:
that the ruleset and the round allow the call, that it answers the player before the
caller in the round's direction (out of turn only where the ruleset lets a calza be),
that the loser is one of the two sides, and it draws the dice changes, the eliminations,
the winner and the next round's starter and mode exactly as a played round's resolution.
"""

from __future__ import annotations

from cacho.engine.bidding.commands import Abandon, RecordOutcome
from cacho.engine.bidding.decide import (
    calza_table_refusal,
    calza_threshold_refusal,
    consequences,
    live_seat,
    restart_mode,
)
from cacho.engine.bidding.events import Event, RoundRecorded
from cacho.engine.bidding.rules import MAX_DICE
from cacho.engine.bidding.state import Direction, MatchState, next_live
from cacho.engine.errors import RuleError
from cacho.engine.undo import EntryUndone, Undo

CALLS = ("dudo", "calza", "paso", "salpicon")


def undo(state: MatchState, command: Undo) -> list[Event]:
    if not state.config.physical:
        raise RuleError("undo-not-physical", "only a physical table's entries are undone")
    if state.paused is not None:
        raise RuleError("match-paused", f"the match is paused: {state.paused}")
    if state.undo is None:
        raise RuleError("nothing-to-undo", "only the last entry can be undone, once, until the next one")
    return [EntryUndone()]


def between_rounds(state: MatchState, what: str) -> None:
    if not state.config.physical:
        raise RuleError("outcome-not-physical", f"{what} is entered only at a physical table")
    if state.paused is not None:
        raise RuleError("match-paused", f"the match is paused: {state.paused}")
    if state.phase == "over":
        raise RuleError("match-over", "the match is over")
    if state.round is not None:
        raise RuleError("round-in-progress", "this round's dice are entered: enter its moves one by one")


def direction_of(state: MatchState, given: Direction | None) -> Direction:
    direction = given or state.direction
    if direction not in ("cw", "ccw"):
        raise RuleError("invalid-direction", "direction is cw or ccw")
    if direction != state.direction and not state.rules.starter_chooses_direction:
        raise RuleError("direction-not-choosable", f"{state.rules.ruleset} is played clockwise")
    return direction


def answered_seat(state: MatchState, seat: int, direction: Direction) -> int:
    """The player whose bid (or paso, or salpicón) `seat` answers when on turn: the one
    before it in `direction`, among those holding dice."""
    return next_live(state.dice_counts, seat, "ccw" if direction == "cw" else "cw")


def record_outcome(state: MatchState, command: RecordOutcome) -> RoundRecorded:
    between_rounds(state, "a round's outcome")
    rules = state.rules
    players = state.config.players
    call = command.call
    if call not in CALLS:
        raise RuleError("invalid-call", "the call is dudo, calza, paso or salpicon")
    present = {"calza": rules.has_calza, "paso": rules.has_paso, "salpicon": rules.has_salpicon}
    if not present.get(call, True):
        raise RuleError("action-not-in-ruleset", f"{rules.ruleset} has no {call}")
    seat = live_seat(state, command.player)
    direction = direction_of(state, command.direction)
    mode = state.next_mode
    target = answered_seat(state, seat, direction)
    if command.against is not None:
        other = live_seat(state, command.against)
        if other == seat:
            raise RuleError("outcome-against-self", f"{command.player} cannot answer their own bid")
        if other != target and not (call == "calza" and rules.calza_out_of_turn):
            raise RuleError(
                "outcome-wrong-target",
                f"{command.player} answers {players[target]}, the player before them in this direction",
            )
        target = other
    changes: dict[int, int]
    if call == "calza":
        if command.exact is None:
            raise RuleError("outcome-exact-missing", "say whether the calza was exact")
        if command.loser is not None:
            raise RuleError("outcome-loser-given", "a calza is exact or not: its caller gains or loses")
        refusal = calza_table_refusal(state, mode, seat) or calza_threshold_refusal(state)
        if refusal is not None:
            raise refusal
        changes = {seat: 1 if command.exact else -rules.calza_penalty}
        starter = seat
    else:
        if command.exact is not None:
            raise RuleError("outcome-exact-given", f"only a calza is exact; a {call} has a loser")
        if call == "paso" and mode == "obligado":
            raise RuleError("paso-in-obligado", "no paso in an obligado round")
        if call == "salpicon" and state.dice_counts[target] != MAX_DICE:
            raise RuleError("salpicon-needs-five-dice", f"{players[target]} holds fewer than 5 dice")
        if command.loser is None:
            raise RuleError("outcome-loser-missing", f"say who lost the {call}")
        if command.loser not in players:
            raise RuleError("unknown-player", f"{command.loser!r} is not seated in this match")
        loser = players.index(command.loser)
        if loser not in (seat, target):
            raise RuleError(
                "outcome-loser",
                f"the {call} is lost by {command.player} or {players[target]}, not {command.loser}",
            )
        changes = {loser: -1}
        starter = loser
    facts = consequences(state, direction, changes, starter)
    assert state.next_starter is not None
    return RoundRecorded(
        number=state.rounds_started + 1,
        starter=players[state.next_starter],
        mode=mode,
        direction=direction,
        result=call,
        caller=command.player,
        target=players[target],
        dice_change=facts.dice_change,
        eliminated=facts.eliminated,
        next_starter=facts.next_starter,
        next_mode=facts.next_mode,
        calzo_disabled=facts.calzo_disabled,
        winner=facts.winner,
    )


def abandon_between_rounds(state: MatchState, command: Abandon) -> RoundRecorded:
    """A player leaves a physical table while no round is in play: their dice leave, and the
    round that was to start is the one that starts (its starter replaced as in X-6b)."""
    between_rounds(state, "an abandonment between rounds")
    players = state.config.players
    seat = live_seat(state, command.player)
    direction = direction_of(state, command.direction)
    counts = list(state.dice_counts)
    lost = counts[seat]
    counts[seat] = 0
    after = tuple(counts)
    live = [index for index, held in enumerate(after) if held > 0]
    winner = players[live[0]] if len(live) == 1 else None
    assert state.next_starter is not None
    next_starter = next_mode = None
    if winner is None:
        starter = state.next_starter
        if after[starter] == 0:
            starter = next_live(after, starter, direction)
        next_starter = players[starter]
        next_mode = restart_mode(state.rules, state.next_mode, after)
    rules = state.rules
    calzo_disabled = bool(
        rules.calza_threshold
        and (state.calzo_disabled or sum(after) < rules.calzo_threshold(state.config.initial_players))
    )
    return RoundRecorded(
        number=state.rounds_started + 1,
        starter=players[state.next_starter],
        mode=state.next_mode,
        direction=direction,
        result="restart",
        caller=command.player,
        target=None,
        dice_change=((command.player, -lost),),
        eliminated=(command.player,),
        next_starter=next_starter,
        next_mode=next_mode,
        calzo_disabled=calzo_disabled,
        winner=winner,
    )
