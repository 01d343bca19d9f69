"""The result of a bidding match from its events (`cacho.engine.results.SeatResult`).

The winner ranks first, players still holding dice next (a match in progress), then
those who are out: a later exit ranks ahead of an earlier one, and players out at the
same moment (one resolution, one abandonment) share their place. Players a setup
already left without dice went out before anyone else.

At time (docs/rules.md §9.1): the players still in place by the dice they hold (those a
sudden death set aside included), most first, equal dice sharing a place; the players
out before keep their places below them.

Rulings: a voided round (and every round after it) counts for nothing; a referee's
change of dice that takes a player's last die is an exit like any other (nobody is
credited); disqualified players place last; an award-result's places stand as given.
"""

from __future__ import annotations

from collections.abc import Sequence

from cacho.engine.bidding.events import (
    Event,
    MatchStarted,
    PlayerAbandoned,
    RoundRecorded,
    RoundResolved,
    RoundStarted,
)
from cacho.engine.bidding.evolve import evolve, initial_state, replay
from cacho.engine.bidding.ruling_events import RULING_EVENTS, DiceChanged, RoundVoided
from cacho.engine.results import SeatResult, competition_placements
from cacho.engine.undo import without_undone


def match_results(events: Sequence[Event]) -> tuple[SeatResult, ...]:
    """One `SeatResult` per seat, in seat order, for the match these events hold (an undone
    entry never happened)."""
    events = without_undone(events)
    state = replay(events)
    players = state.config.players
    seat_of = {name: seat for seat, name in enumerate(players)}
    out_at: dict[int, int] = {}  # seat -> index of the event that took it out
    credits: list[tuple[int, int]] = []  # (index of the event, seat credited)
    round_steps: dict[int, int] = {}  # round number -> index of its round_started
    first = events[0]
    assert isinstance(first, MatchStarted)
    folded = initial_state(first) if any(isinstance(e, RULING_EVENTS) for e in events) else None
    for step, event in enumerate(events):
        if folded is not None and step > 0:
            before = folded.dice_counts
            folded = evolve(folded, event)
            if isinstance(event, DiceChanged):
                seat = seat_of[event.player]
                if folded.dice_counts[seat] == 0 < before[seat]:
                    out_at.setdefault(seat, step)
        if isinstance(event, RoundStarted):
            round_steps[event.number] = step
        elif isinstance(event, RoundRecorded):
            round_steps[event.number] = step
            if event.result == "restart" and event.caller is not None:
                out_at.setdefault(seat_of[event.caller], step)
            elif event.caller is None:  # a state at time: out, to nobody's credit
                for name in event.eliminated:
                    out_at.setdefault(seat_of[name], step)
            elif event.target is not None:
                for name in event.eliminated:
                    out_at.setdefault(seat_of[name], step)
                    other = event.target if name == event.caller else event.caller
                    credits.append((step, seat_of[other]))
        elif isinstance(event, RoundVoided):
            cut = round_steps[event.round]
            out_at = {seat: when for seat, when in out_at.items() if when < cut}
            credits = [(when, seat) for when, seat in credits if when < cut]
        elif isinstance(event, MatchStarted):
            for seat, held in enumerate(event.dice):
                if held == 0:
                    out_at.setdefault(seat, step)
        elif isinstance(event, RoundResolved):
            for name in event.eliminated:
                out_at.setdefault(seat_of[name], step)
                # the other side of the resolution took the last die
                if name == event.target and event.caller != name:
                    credits.append((step, seat_of[event.caller]))
                elif name == event.caller and event.target != name:
                    credits.append((step, seat_of[event.target]))
        elif isinstance(event, PlayerAbandoned):
            out_at.setdefault(seat_of[event.player], step)
    credit = [0] * len(players)
    for _, seat in credits:
        credit[seat] += 1
    disqualified = sorted(state.table.disqualified)
    winners = [] if state.winner is None else [state.winner]
    ranked = set(winners) | set(disqualified)
    still_in = [seat for seat in range(len(players)) if seat not in out_at and seat not in ranked]
    exits: dict[int, list[int]] = {}
    for seat, step in out_at.items():
        if seat not in ranked:
            exits.setdefault(step, []).append(seat)
    tiers = [tier for tier in (winners, still_in) if tier]
    time = state.table.time
    decided = time is not None and time.decided
    dice_held = state.dice_counts if time is None else time.held(state.dice_counts)
    if decided:
        ranks = sorted({dice_held[seat] for seat in still_in}, reverse=True)
        tiers = [[seat for seat in still_in if dice_held[seat] == dice] for dice in ranks]
    tiers += [exits[step] for step in sorted(exits, reverse=True)]
    if disqualified:
        tiers.append(disqualified)
    placement = competition_placements(tiers)
    if state.table.awarded is not None:
        placement = dict(enumerate(state.table.awarded))
    return tuple(
        SeatResult(
            seat=seat,
            name=name,
            placement=placement[seat],
            dice_left=dice_held[seat],
            eliminations=credit[seat],
            left=seat in state.abandoned,
            at_time=decided and state.table.awarded is None,  # an award is the referee's result
        )
        for seat, name in enumerate(players)
    )
