"""Rounds at time in Cacho Alalay (docs/rules.md §9.1, T-1, T-3, T-4).

A director's `call-time` ruling leaves `time_called`. The entry on turn finishes its turn
(thrown or about to throw); under `sheet-as-it-stands` the match then ends, under
`finish-round-of-turns` it ends once every entry still in has had as many turns as the
most any has had by then. At the end every open box counts 0 (not a scratch: a card keeps
its open boxes), the totals rank as at a normal end (§8) and the match ends with
`match_ended`, reason `at-time`. The engine draws the end itself, so a record states only
the call.
"""

from __future__ import annotations

from dataclasses import replace

from cacho.engine.alalay.events import MatchEnded
from cacho.engine.alalay.scorecard import is_full_card
from cacho.engine.alalay.state import State, TimeCall
from cacho.engine.errors import RuleError
from cacho.engine.rulings import Rule

POLICIES = ("sheet-as-it-stands", "finish-round-of-turns")
DEFAULT_POLICY = "sheet-as-it-stands"
AT_TIME = "at-time"  # the reason of a match_ended that time decided


def check_call(state: State, rule: Rule) -> str:
    """The policy of a `call-time` ruling that may be made now (RuleError otherwise)."""
    policy: str = rule.get("policy") or DEFAULT_POLICY
    if policy not in POLICIES:
        raise RuleError("time-policy-unknown", f"{policy!r} is not a time policy of alalay")
    if rule.has("round_under_way"):  # the turn on turn is always owed: nothing to say
        raise RuleError("ruling-field-unknown", "call-time takes no round_under_way in alalay")
    if state.over:
        raise RuleError("ruling-match-over", "the match is over")
    if state.time is not None:
        raise RuleError("time-already-called", "time has been called on this match already")
    return policy


def with_time_called(state: State, policy: str) -> State:
    """The state once time is called: the entry on turn is owed the turn it is on, and under
    `finish-round-of-turns` every entry as many turns as the most any then has."""
    owed = list(state.turns_played)
    if state.turn is not None:
        owed[state.turn.seat] += 1
    if policy == "finish-round-of-turns":
        most = max((owed[seat] for seat in range(len(owed)) if state.is_live(seat)), default=0)
        owed = [most] * len(owed)
    return replace(state, time=TimeCall(policy, tuple(owed)))


def end_at_time(state: State) -> MatchEnded | None:
    """The end at time, once every entry still in has had the turns it is owed."""
    time = state.time
    if time is None or state.over:
        return None
    for seat in range(len(state.entries)):
        owed = state.is_live(seat) and not is_full_card(state.cards[seat])
        if owed and state.turns_played[seat] < time.turns[seat]:
            return None
    return ranked_at_time(state)


def ranked_at_time(state: State) -> MatchEnded:
    """The end at time by the totals as they stand (a referee's correction or penalty on a
    table decided at time draws it again)."""
    live = [seat for seat in range(len(state.entries)) if state.is_live(seat)]
    if not live:
        return MatchEnded((), None)
    totals = state.totals  # open boxes count 0; less any referee's penalties
    best = max(totals[seat] for seat in live)
    return MatchEnded(tuple(state.entries[seat].name for seat in live if totals[seat] == best), AT_TIME)
