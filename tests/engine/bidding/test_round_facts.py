"""The engine's round facts (`Game.round_facts`) agree with the events they come from, over
whole matches its bot plays (hypothesis)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cacho.engine.bidding import RULESETS, BidMade, RoundResolved
from cacho.engine.games import game_for
from tests.engine.bidding.helpers import bid, bot_match, dudo, record


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(RULESETS), st.integers(2, 6), st.integers(0, 2**32))
def test_every_resolved_round_has_facts_that_match_its_events(ruleset: str, seats: int, seed: int) -> None:
    players = [f"p{i}" for i in range(seats)]
    events = bot_match(ruleset, players, seed)
    facts = game_for(ruleset).round_facts(events)
    resolved = [e for e in events if isinstance(e, RoundResolved)]
    assert len(facts) == len(resolved)
    for fact in facts:
        event = events[fact.at]
        assert isinstance(event, RoundResolved)
        assert (fact.call, fact.caller, fact.target, fact.count) == (
            event.result,
            event.caller,
            event.target,
            event.count,
        )
        assert fact.dice_change == event.dice_change
        held = dict(fact.hands)
        assert all(held[name] >= 1 for name in held)
        if fact.face is not None and fact.target is not None:
            assert fact.chance in (1 / 6, 2 / 6)
            assert 0 <= (fact.bidder_matching or 0) <= held[fact.target]
            assert fact.count is None or fact.count >= fact.bidder_matching
        for decision in fact.decisions:
            assert decision.since == decision.at - 1
            assert decision.player in held
        bids = [d for d in fact.decisions if d.kind == "bid"]
        assert [(events[d.at].player, events[d.at].quantity, events[d.at].face) for d in bids] == list(
            fact.bids
        )
        assert all(isinstance(events[d.at], BidMade) for d in bids)
        assert fact.decisions[-1].at == fact.at


def test_the_challenged_bidders_own_dice_and_the_wild_ones() -> None:
    """beto bids four 3s holding 3, 1 (ones wild: two of his own count, 1/3 for each other die)."""
    data = record(
        "dudo",
        [
            {
                "dice": {"ana": [2, 2, 4, 5, 6], "beto": [3, 1, 6, 6, 5]},
                "actions": [bid("ana", 2, 2), bid("beto", 4, 3), dudo("ana")],
            }
        ],
        setup={"dice": {"ana": 5, "beto": 5}, "starter": "ana"},
    )
    game = game_for("dudo")
    (fact,) = game.round_facts(game.record_events(data))
    assert (fact.call, fact.caller, fact.target, fact.quantity, fact.face, fact.count) == (
        "dudo",
        "ana",
        "beto",
        4,
        3,
        2,
    )
    assert fact.bidder_matching == 2 and fact.chance == 2 / 6
    assert fact.bids == (("ana", 2, 2), ("beto", 4, 3))
    assert dict(fact.dice_change) == {"beto": -1}
    assert [d.kind for d in fact.decisions] == ["bid", "bid", "dudo"]


def test_a_game_without_bids_has_no_round_facts() -> None:
    assert game_for("alalay").round_facts([]) == ()
