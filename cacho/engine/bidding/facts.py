"""The facts of each finished round of a bidding match (`cacho.engine.round_facts`), read
by replaying its events: the state before each resolution holds the round's dice, mode
and standing bid, so rulings that changed them (adjust-dice, void-round) are followed."""

from __future__ import annotations

from collections.abc import Sequence

from cacho.engine.bidding.counting import counted_positions, ones_are_wild
from cacho.engine.bidding.events import (
    BidMade,
    Event,
    MatchStarted,
    PasoAnnounced,
    RoundRecorded,
    RoundResolved,
    SalpiconAnnounced,
)
from cacho.engine.bidding.evolve import evolve, initial_state
from cacho.engine.bidding.state import MatchState
from cacho.engine.round_facts import Decision, RoundFacts

FACES = 6


def round_facts(events: Sequence[Event]) -> tuple[RoundFacts, ...]:
    if not events or not isinstance(events[0], MatchStarted):
        return ()
    state: MatchState = initial_state(events[0])
    found: list[RoundFacts] = []
    decisions: list[Decision] = []
    bids: list[tuple[str, int, int]] = []
    for at, event in enumerate(events[1:], start=1):
        if isinstance(event, BidMade):
            bids.append((event.player, event.quantity, event.face))
            decisions.append(Decision(event.player, "bid", at, at - 1, event.timed_out))
        elif isinstance(event, PasoAnnounced | SalpiconAnnounced):
            kind = "paso" if isinstance(event, PasoAnnounced) else "salpicon"
            decisions.append(Decision(event.player, kind, at, at - 1, False))
        elif isinstance(event, RoundResolved):
            call = Decision(event.caller, event.result, at, at - 1, event.timed_out)
            found.append(_resolved(state, event, at, tuple(bids), (*decisions, call)))
        elif isinstance(event, RoundRecorded) and event.result not in ("restart", "at-time"):
            found.append(_recorded(state, event, at))
        state = evolve(state, event)
        if state.round is None or isinstance(event, RoundRecorded):
            decisions, bids = [], []  # a round ended, restarted or was voided
    return tuple(found)


def _resolved(
    state: MatchState,
    event: RoundResolved,
    at: int,
    bids: tuple[tuple[str, int, int], ...],
    decisions: tuple[Decision, ...],
) -> RoundFacts:
    players = state.config.players
    played = state.round
    hands = (
        tuple((players[seat], len(hand)) for seat, hand in enumerate(played.dice) if hand) if played else ()
    )
    matching: int | None = None
    chance: float | None = None
    if played is not None and event.face is not None and event.target in players:
        seat = players.index(event.target)
        counted = counted_positions(state.rules, played.mode, played.dice, event.face)
        matching = len(counted[seat])
        chance = (2 if ones_are_wild(state.rules, played.mode, event.face) else 1) / FACES
    return RoundFacts(
        number=played.number if played else 0,
        at=at,
        physical=state.config.physical,
        hands=hands,
        bids=bids,
        call=event.result,
        caller=event.caller,
        target=event.target,
        quantity=event.quantity,
        face=event.face,
        count=event.count,
        bidder_matching=matching,
        chance=chance,
        dice_change=event.dice_change,
        decisions=decisions,
    )


def _recorded(state: MatchState, event: RoundRecorded, at: int) -> RoundFacts:
    assert event.caller is not None  # a state at time names no call: it has no facts
    players = state.config.players
    counts = state.table.dice_counts
    return RoundFacts(
        number=event.number,
        at=at,
        physical=True,
        hands=tuple((name, count) for name, count in zip(players, counts, strict=True) if count),
        bids=(),
        call=event.result,
        caller=event.caller,
        target=event.target,
        quantity=None,
        face=None,
        count=None,
        bidder_matching=None,
        chance=None,
        dice_change=event.dice_change,
        decisions=(),
    )


__all__ = ["round_facts"]
