"""The integrity signals' pure functions (`tournaments.integrity.signals`): honest play
(the engine's bot at every seat, real dice) rarely flags; a planted collusion flags, with
its rounds as evidence; tiny samples never flag; the order of the rounds does not matter."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cacho.engine.games import game_for
from tests.engine.bidding.helpers import bot_match
from tournaments.integrity import signals
from tournaments.integrity.reader import match_rounds
from tournaments.integrity.signals import Answer, Round
from tournaments.matches import PlayedMatch

PLAYERS = ("ana", "beto", "caro", "dani")
SOME = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def honest_rounds(seed: int, matches: int = 12) -> list[Round]:
    """Four players' rounds over `matches` bot-played matches, seats shuffled each match,
    decision times drawn from one log-normal law for everybody."""
    rng = random.Random(seed)
    rounds: list[Round] = []
    for number in range(matches):
        seats = list(PLAYERS)
        rng.shuffle(seats)
        ruleset = rng.choice(("dudo", "cacho-online", "liars-dice"))
        events = bot_match(ruleset, seats, rng.randrange(2**32))
        start = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
        times, at = [], start
        for _ in events:
            at += dt.timedelta(seconds=rng.lognormvariate(1.2, 0.7))
            times.append(at)
        played = PlayedMatch(
            f"m{seed}-{number}",
            True,
            {name: name for name in seats},
            game_for(ruleset).round_facts(events),
            tuple(range(1, len(events) + 1)),
            tuple(times),
        )
        rounds.extend(match_rounds(played, {name: name for name in seats}))
    return rounds


def test_honest_play_rarely_flags() -> None:
    flagged = [seed for seed in range(40) if signals.compute(honest_rounds(seed))]
    assert len(flagged) <= 2, flagged


def test_honest_rounds_carry_the_engines_facts() -> None:
    rounds = honest_rounds(7, matches=3)
    assert rounds and all(r.call in ("dudo", "calza", "paso", "salpicon") for r in rounds)
    doubted = [r for r in rounds if r.call == "dudo"]
    assert doubted and all(signals.exact_chance(r) is not None for r in doubted)
    assert all(r.version > 0 for r in rounds)
    assert sum(len(r.times) for r in rounds) > len(rounds)
    assert any(a.kind == "dudo" for r in rounds for a in r.answers)


# ---------------------------------------------------------------- planted collusion


def _background(rng: random.Random, count: int, planted: tuple[str, ...]) -> list[Round]:
    """Rounds of honest-looking answers, calls and times among the four players. Nothing
    here involves the `planted` players together (a pair: no answer or call between them;
    one player: no call on their bids, none of their times), so the planted rounds are
    all there is of them."""
    pair, alone = set(planted) if len(planted) > 1 else set(), set(planted) if len(planted) == 1 else set()
    rounds = []
    for number in range(1, count + 1):
        bidder, player = rng.sample(PLAYERS, 2)
        while pair and {bidder, player} == pair:
            bidder, player = rng.sample(PLAYERS, 2)
        caller, target = rng.sample(PLAYERS, 2)
        while (pair and {caller, target} == pair) or target in alone:
            caller, target = rng.sample(PLAYERS, 2)
        unseen, own = rng.randint(6, 15), rng.randint(0, 2)
        quantity = own + rng.randint(1, 4)
        count_found = own + sum(rng.random() < 1 / 3 for _ in range(unseen))
        rounds.append(
            Round(
                "bg",
                number,
                number * 10,
                answers=(Answer(player, bidder, "dudo" if rng.random() < 0.35 else "bid"),),
                call="dudo",
                caller=caller,
                target=target,
                caller_gave=rng.random() < 0.45,
                quantity=quantity,
                count=count_found,
                bidder_matching=own,
                unseen=unseen,
                chance=1 / 3,
                times=tuple((p, rng.lognormvariate(1.5, 0.6)) for p in (caller, target) if p not in alone),
            )
        )
    return rounds


@SOME
@given(st.integers(0, 2**32), st.integers(20, 60))
def test_a_pair_that_never_doubts_each_other_flags_with_its_rounds(seed: int, planted: int) -> None:
    rng = random.Random(seed)
    pair = [
        Round("pair", n, n, answers=(Answer("ana", "beto", "bid"), Answer("beto", "ana", "bid")))
        for n in range(1, planted + 1)
    ]
    found = signals.compute([*_background(rng, 300, ("ana", "beto")), *pair])
    hit = [s for s in found if s.kind == signals.NEVER_DOUBTS and s.players == ("ana", "beto")]
    assert len(hit) == 1
    assert hit[0].figures["answers"] >= 2 * planted and hit[0].p_value <= signals.ALPHA
    assert {e.match for e in hit[0].evidence} <= {"pair", "bg"}
    assert {(e.match, e.round) for e in hit[0].evidence if e.match == "pair"} <= {
        ("pair", n) for n in range(1, planted + 1)
    }
    assert hit[0].evidence


@SOME
@given(st.integers(0, 2**32), st.integers(12, 30))
def test_calls_that_hand_dice_to_one_opponent_flag(seed: int, planted: int) -> None:
    rng = random.Random(seed)
    gifts = [
        Round("gift", n, n, call="dudo", caller="caro", target="dani", caller_gave=True)
        for n in range(1, planted + 1)
    ]
    found = signals.compute([*_background(rng, 300, ("caro", "dani")), *gifts])
    hit = [s for s in found if s.kind == signals.GIFTING and s.players == ("caro", "dani")]
    assert len(hit) == 1
    assert hit[0].figures["gifts"] >= planted
    assert {("gift", n) for n in range(1, planted + 1)} <= {(e.match, e.round) for e in hit[0].evidence}


@SOME
@given(st.integers(0, 2**32), st.integers(signals.MIN_CHALLENGED, 30))
def test_bids_always_exactly_right_flag(seed: int, planted: int) -> None:
    rng = random.Random(seed)
    exact = []
    for n in range(1, planted + 1):
        own, unseen = rng.randint(0, 2), rng.randint(10, 20)
        quantity = own + rng.randint(2, 6)
        exact.append(
            Round(
                "exact",
                n,
                n,
                call="dudo",
                caller="caro",
                target="beto",
                quantity=quantity,
                count=quantity,
                bidder_matching=own,
                unseen=unseen,
                chance=1 / 3,
            )
        )
    found = signals.compute([*_background(rng, 200, ("beto",)), *exact])
    hit = [s for s in found if s.kind == signals.EXACT_BIDS and s.players == ("beto",)]
    assert len(hit) == 1
    assert hit[0].figures["exact"] >= planted > hit[0].figures["expected_exact"]
    assert {("exact", n) for n in range(1, planted + 1)} <= {(e.match, e.round) for e in hit[0].evidence}


@SOME
@given(st.integers(0, 2**32), st.floats(0.2, 0.6))
def test_machine_regular_answers_flag(seed: int, seconds: float) -> None:
    rng = random.Random(seed)
    bot_like = [Round("fast", n, n, times=(("dani", seconds),)) for n in range(1, 41)]
    found = signals.compute([*_background(rng, 200, ("dani",)), *bot_like])
    hit = [s for s in found if s.kind == signals.RESPONSE_TIME and s.players == ("dani",)]
    assert len(hit) == 1 and hit[0].p_value is None
    assert hit[0].figures["pattern"] in ("uniform", "fast")
    assert hit[0].evidence and all(e.match == "fast" for e in hit[0].evidence)


# ---------------------------------------------------------------- invariants

names = st.sampled_from(PLAYERS)
answers = st.builds(Answer, names, names, st.sampled_from(("bid", "dudo", "calza", "paso")))


@st.composite
def any_round(draw: st.DrawFn) -> Round:
    own = draw(st.integers(0, 5))
    return Round(
        "m",
        draw(st.integers(1, 50)),
        draw(st.integers(1, 500)),
        answers=tuple(draw(st.lists(answers, max_size=3))),
        call=draw(st.sampled_from(("dudo", "calza", "paso", None))),
        caller=draw(names),
        target=draw(names),
        caller_gave=draw(st.booleans()),
        quantity=draw(st.integers(1, 20)),
        count=draw(st.integers(0, 20)),
        bidder_matching=own,
        unseen=draw(st.integers(0, 25)),
        chance=draw(st.sampled_from((1 / 6, 1 / 3))),
        times=tuple(draw(st.lists(st.tuples(names, st.floats(0, 60)), max_size=3))),
    )


@settings(max_examples=200, deadline=None)
@given(st.lists(any_round(), max_size=7))
def test_tiny_samples_never_flag(rounds: list[Round]) -> None:
    assert signals.compute(rounds) == []


@settings(max_examples=60, deadline=None)
@given(st.lists(any_round(), max_size=120), st.randoms())
def test_signals_do_not_depend_on_the_order_of_the_rounds(rounds: list[Round], rnd: Any) -> None:
    found = signals.compute(rounds)
    shuffled = list(rounds)
    rnd.shuffle(shuffled)
    again = signals.compute(shuffled)
    assert sorted((s.kind, s.players) for s in found) == sorted((s.kind, s.players) for s in again)
    given_rounds = {(r.match, r.number) for r in rounds}
    for s in found:
        assert s.kind in signals.KINDS and s.evidence
        assert s.p_value is None or 0 <= s.p_value <= signals.ALPHA
        assert {(e.match, e.round) for e in s.evidence} <= given_rounds


@given(st.lists(st.floats(0, 1), max_size=12), st.integers(-1, 13))
def test_the_tails_are_probabilities_that_add_up(ps: list[float], k: int) -> None:
    upper, lower = signals.upper_tail(ps, k), signals.lower_tail(ps, k - 1)
    assert 0 <= upper <= 1 and 0 <= lower <= 1
    assert abs(upper + lower - 1) < 1e-9 or k <= 0
