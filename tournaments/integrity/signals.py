"""Integrity signals over a club's played rounds: pure functions over plain data (no Django,
no engine). The facts come from the engine (`cacho.engine.round_facts`, gathered by
`tournaments.integrity.reader`): who bid, who called, against whom, what the count was,
whose dice changed. This module only counts them and compares what it counts with what
chance predicts. A signal is a hint for a referee, never a penalty: docs/integrity.md
explains each statistic and threshold.

Players are opaque keys (the reader uses usernames); seats without an account are left
out by the reader.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

NEVER_DOUBTS = "never-doubts"
GIFTING = "call-gifting"
EXACT_BIDS = "exact-bids"
RESPONSE_TIME = "response-time"
KINDS = (NEVER_DOUBTS, GIFTING, EXACT_BIDS, RESPONSE_TIME)
DOUBT = "dudo"  # the call (a kind of answer), not the game
CALLS = (DOUBT, "calza")

# Thresholds (docs/integrity.md). A p-value is the chance of seeing at least this much
# (or, for never-doubts, this little) under honest play; tiny samples never flag.
ALPHA = 0.001
MIN_CHANCES = 12  # never-doubts: answers to the other's bids, both ways together
MIN_CALLS = 8  # gifting: calls by one player on the other's bids
MIN_GIFTS = 6
MIN_CHALLENGED = 15  # exact bids: the player's bids doubted with a dudo
MIN_EXACT = 5
MIN_DECISIONS = 30  # response times: the player's own decisions on a live clock
UNIFORM_CV = 0.15  # stdev / mean of the decision times below this: machine-like regularity
FAST_RATIO = 0.25  # a median below this share of everybody else's median...
FAST_SECONDS = 1.5  # ...and below this many seconds
BASELINE_MIN = 10  # answers needed for a player's own doubting rate (else the club's)
EVIDENCE_MAX = 50


@dataclass(frozen=True, slots=True)
class Answer:
    """A player's action on the bid just made by another: `kind` is "dudo" for a doubt."""

    player: str
    bidder: str
    kind: str


@dataclass(frozen=True, slots=True)
class Round:
    """One finished round, as the reader decodes it from the engine's facts."""

    match: str
    number: int
    version: int  # the event that ended the round: the replay page's `#v=`
    answers: tuple[Answer, ...] = ()
    call: str | None = None  # "dudo", "calza", ... (None: nothing to count)
    caller: str | None = None
    target: str | None = None
    caller_gave: bool = False  # the call cost its caller dice or handed the target some
    quantity: int | None = None
    count: int | None = None
    bidder_matching: int | None = None  # the target's own dice that counted for the bid
    unseen: int = 0  # the dice the target could not see
    chance: float | None = None  # the chance one unseen die counts for the bid
    times: tuple[tuple[str, float], ...] = ()  # (player, seconds) of decisions on a live clock


@dataclass(frozen=True, slots=True)
class Evidence:
    match: str
    round: int
    version: int

    def as_json(self) -> dict[str, Any]:
        return {"match": self.match, "round": self.round, "version": self.version}


@dataclass(frozen=True)
class Signal:
    kind: str
    players: tuple[str, ...]
    p_value: float | None  # None where no probability is claimed (response times)
    figures: dict[str, Any]
    evidence: tuple[Evidence, ...] = field(default=())

    @property
    def strength(self) -> float:
        """How far from chance, as -log10 of the p-value (3 is one in a thousand)."""
        if self.p_value is None:
            return float(self.figures.get("strength", 0.0))
        return round(-math.log10(max(self.p_value, 1e-300)), 1)


def answers_of(decisions: Sequence[tuple[str, str]]) -> tuple[Answer, ...]:
    """The answers in a round's decisions ((player, kind) in order): every decision that
    follows another player's bid."""
    found = []
    for (before, kind_before), (player, kind) in itertools.pairwise(decisions):
        if kind_before == "bid" and player != before:
            found.append(Answer(player, before, kind))
    return tuple(found)


# ---------------------------------------------------------------- statistics


def binomial_pmf(k: int, n: int, p: float) -> float:
    if k < 0 or k > n:
        return 0.0
    return math.comb(n, k) * p**k * (1 - p) ** (n - k)


def poisson_binomial(ps: Sequence[float]) -> list[float]:
    """The distribution of the number of successes of independent trials with chances `ps`."""
    dist = [1.0]
    for p in ps:
        nxt = [0.0] * (len(dist) + 1)
        for k, mass in enumerate(dist):
            nxt[k] += mass * (1 - p)
            nxt[k + 1] += mass * p
        dist = nxt
    return dist


def upper_tail(ps: Sequence[float], k: int) -> float:
    """P(at least k successes)."""
    return min(1.0, sum(poisson_binomial(ps)[max(k, 0) :]))


def lower_tail(ps: Sequence[float], k: int) -> float:
    """P(at most k successes)."""
    return min(1.0, sum(poisson_binomial(ps)[: k + 1]))


# ---------------------------------------------------------------- the signals


def compute(rounds: Iterable[Round]) -> list[Signal]:
    """Every signal the rounds raise, strongest first."""
    played = list(rounds)
    found = [*never_doubts(played), *gifting(played), *exact_bids(played), *response_times(played)]
    return sorted(found, key=lambda s: (-s.strength, s.kind, s.players))


def _evidence(rounds: Iterable[Round]) -> tuple[Evidence, ...]:
    seen: dict[tuple[str, int], Evidence] = {}
    for r in rounds:
        seen.setdefault((r.match, r.number), Evidence(r.match, r.number, r.version))
    return tuple(list(seen.values())[:EVIDENCE_MAX])


def never_doubts(rounds: Sequence[Round]) -> list[Signal]:
    """Two players who answer each other's bids many times and never doubt one: each answer
    had the answering player's usual doubting rate (against everybody else) of being a
    dudo; the p-value is the chance that none was."""
    answers = [(r, a) for r in rounds for a in r.answers]
    doubts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])  # (player, bidder)
    for _r, a in answers:
        doubts[a.player, a.bidder][0] += a.kind == DOUBT
        doubts[a.player, a.bidder][1] += 1
    all_doubts = sum(d for d, _n in doubts.values())
    club_rate = all_doubts / len(answers) if answers else 0.0
    players = sorted({a.player for _r, a in answers} | {a.bidder for _r, a in answers})
    found = []
    for i, one in enumerate(players):
        for other in players[i + 1 :]:
            pair = {one, other}
            between = [(r, a) for r, a in answers if {a.player, a.bidder} == pair]
            if len(between) < MIN_CHANCES or any(a.kind == DOUBT for _r, a in between):
                continue
            rates = {p: _doubt_rate(doubts, p, pair, club_rate) for p in pair}
            chances = [rates[a.player] for _r, a in between]
            p_value = math.prod(1 - p for p in chances)
            if p_value > ALPHA:
                continue
            found.append(
                Signal(
                    NEVER_DOUBTS,
                    (one, other),
                    p_value,
                    {
                        "answers": len(between),
                        "doubts": 0,
                        "expected_doubts": round(sum(chances), 2),
                        "doubt_rates": {p: round(rate, 3) for p, rate in sorted(rates.items())},
                    },
                    _evidence(r for r, _a in between),
                )
            )
    return found


def _doubt_rate(doubts: dict[tuple[str, str], list[int]], player: str, pair: set[str], club: float) -> float:
    """How often `player` doubts the bids of players outside `pair` (the club's rate when
    that is too few answers to say)."""
    rows = [v for (p, bidder), v in doubts.items() if p == player and bidder not in pair]
    made, answered = sum(d for d, _n in rows), sum(n for _d, n in rows)
    return made / answered if answered >= BASELINE_MIN else club


def gifting(rounds: Sequence[Round]) -> list[Signal]:
    """Calls by one player on another's bids that cost the caller dice (or hand the target
    some) far more often than such calls do across the club: each call has its kind's
    club-wide rate of going wrong (the pair's own calls left out); the p-value is the
    chance of at least as many."""
    calls = [r for r in rounds if r.call in CALLS and r.caller and r.target]
    by_pair: dict[tuple[str, str], list[Round]] = defaultdict(list)
    for r in calls:
        by_pair[r.caller, r.target].append(r)  # type: ignore[index]
    found = []
    for (caller, target), own in sorted(by_pair.items()):
        gifts = sum(r.caller_gave for r in own)
        if len(own) < MIN_CALLS or gifts < MIN_GIFTS:
            continue
        others = [r for r in calls if (r.caller, r.target) != (caller, target)]
        rates = {}
        for kind in {r.call for r in own}:
            same = [r for r in others if r.call == kind]
            rates[kind] = sum(r.caller_gave for r in same) / len(same) if same else 0.5
        chances = [rates[r.call] for r in own]  # type: ignore[index]
        p_value = upper_tail(chances, gifts)
        if p_value > ALPHA:
            continue
        found.append(
            Signal(
                GIFTING,
                (caller, target),
                p_value,
                {
                    "calls": len(own),
                    "gifts": gifts,
                    "expected_gifts": round(sum(chances), 2),
                    "club_rates": {k: round(v, 3) for k, v in sorted(rates.items())},
                },
                _evidence(r for r in own if r.caller_gave),
            )
        )
    return found


def exact_chance(r: Round) -> float | None:
    """The chance that the bid was exactly right, from what its bidder could see: their own
    matching dice plus a binomial over the dice they could not see."""
    if r.quantity is None or r.bidder_matching is None or r.chance is None:
        return None
    return binomial_pmf(r.quantity - r.bidder_matching, r.unseen, r.chance)


def exact_bids(rounds: Sequence[Round]) -> list[Signal]:
    """A player whose doubted bids (a dudo; a calza is the caller betting on exactness) find
    exactly their quantity far more often than their own dice and the binomial over the
    others' predict; the p-value is the chance of at least as many."""
    doubted: dict[str, list[tuple[Round, float]]] = defaultdict(list)
    for r in rounds:
        chance = exact_chance(r) if r.call == DOUBT and r.target and r.count is not None else None
        if chance is not None:
            doubted[r.target].append((r, chance))  # type: ignore[index]
    found = []
    for player, rows in sorted(doubted.items()):
        exact = [r for r, _c in rows if r.count == r.quantity]
        if len(rows) < MIN_CHALLENGED or len(exact) < MIN_EXACT:
            continue
        chances = [c for _r, c in rows]
        p_value = upper_tail(chances, len(exact))
        if p_value > ALPHA:
            continue
        found.append(
            Signal(
                EXACT_BIDS,
                (player,),
                p_value,
                {"doubted": len(rows), "exact": len(exact), "expected_exact": round(sum(chances), 2)},
                _evidence(exact),
            )
        )
    return found


def response_times(rounds: Sequence[Round]) -> list[Signal]:
    """A player whose decisions take a machine-like regular time (coefficient of variation
    under UNIFORM_CV) or are far faster than everybody else's (median under FAST_RATIO of
    the others' and under FAST_SECONDS)."""
    times: dict[str, list[tuple[Round, float]]] = defaultdict(list)
    for r in rounds:
        for player, seconds in r.times:
            times[player].append((r, seconds))
    found = []
    for player, rows in sorted(times.items()):
        if len(rows) < MIN_DECISIONS:
            continue
        mine = [s for _r, s in rows]
        others = [s for p, other in times.items() if p != player for _r, s in other]
        mean, median = statistics.fmean(mine), statistics.median(mine)
        cv = statistics.pstdev(mine) / mean if mean > 0 else 0.0
        others_median = statistics.median(others) if others else None
        uniform = cv < UNIFORM_CV
        fast = others_median is not None and median < min(FAST_RATIO * others_median, FAST_SECONDS)
        if not (uniform or fast):
            continue
        ratio = median / others_median if others_median else None
        strength = max(
            UNIFORM_CV / max(cv, 1e-3) if uniform else 0.0, FAST_RATIO / ratio if fast and ratio else 0.0
        )
        quickest = sorted(rows, key=lambda row: row[1])
        found.append(
            Signal(
                RESPONSE_TIME,
                (player,),
                None,
                {
                    "decisions": len(rows),
                    "median_seconds": round(median, 3),
                    "variation": round(cv, 3),
                    "others_median_seconds": None if others_median is None else round(others_median, 3),
                    "pattern": "uniform" if uniform else "fast",
                    "strength": round(min(strength, 9.9), 1),
                },
                _evidence(r for r, _s in quickest),
            )
        )
    return found


__all__ = [
    "EXACT_BIDS",
    "GIFTING",
    "KINDS",
    "NEVER_DOUBTS",
    "RESPONSE_TIME",
    "Answer",
    "Evidence",
    "Round",
    "Signal",
    "answers_of",
    "compute",
    "exact_bids",
    "exact_chance",
    "gifting",
    "never_doubts",
    "response_times",
]
