from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.competition.helpers import ids, mix
from tournaments.competition.elimination import (
    DOUBLE_FORFEIT,
    FORFEITED,
    NOT_NEEDED,
    PLAYED,
    READY,
    THIRD_PLACE,
    WALKOVER,
    Bracket,
    BracketProgress,
    TableOutcome,
    bracket_order,
    bracket_tiers,
    double_elimination,
    eliminate_by_tables,
    first_round_byes,
    progress,
    separate_groups,
    single_elimination,
    walkovers,
)
from tournaments.competition.errors import CompetitionError
from tournaments.competition.tables import number_tables, snake, table_sizes


def play_out(bracket: Bracket, salt: int) -> tuple[BracketProgress, dict[str, str]]:
    """Report a pseudo-random winner for every ready match until nothing is ready."""
    winners: dict[str, str] = {}
    state = progress(bracket, winners)
    while state.ready:
        for m in state.ready:
            assert m.home and m.away
            winners[m.id] = m.home if mix(salt, m.id) % 2 else m.away
        state = progress(bracket, winners)
    return state, winners


def test_bracket_order() -> None:
    assert bracket_order(2) == (1, 2)
    assert bracket_order(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    with pytest.raises(CompetitionError):
        bracket_order(6)


@given(n=st.integers(2, 70), salt=st.integers(0, 10**6))
def test_single_elimination_has_exactly_one_champion_and_byes_go_to_top_seeds(n: int, salt: int) -> None:
    seeds = ids(n)
    bracket = single_elimination(seeds)
    assert sorted(first_round_byes(bracket)) == seeds[: bracket.size - n]
    state, winners = play_out(bracket, salt)
    assert state.champion is not None and state.champion in seeds
    losses = Counter(m.loser for m in state.matches if m.status == PLAYED)
    assert len(winners) == n - 1  # every match played eliminates exactly one entry
    assert set(losses) == set(seeds) - {state.champion}
    assert all(c == 1 for c in losses.values())


def test_seeds_one_and_two_meet_only_in_the_final() -> None:
    bracket = single_elimination(ids(8))
    winners: dict[str, str] = {}
    state = progress(bracket, winners)
    while state.ready:
        for m in state.ready:
            assert m.home and m.away
            winners[m.id] = min(m.home, m.away)  # the better seed always wins
        state = progress(bracket, winners)
    assert state.champion == "e000"
    final = state.match(bracket.final)
    assert {final.home, final.away} == {"e000", "e001"}


@settings(max_examples=80, deadline=None)
@given(n=st.integers(2, 40), salt=st.integers(0, 10**6), reset=st.booleans())
def test_double_elimination_one_champion_everyone_else_loses_twice(n: int, salt: int, reset: bool) -> None:
    seeds = ids(n)
    bracket = double_elimination(seeds, grand_final_reset=reset)
    state, _ = play_out(bracket, salt)
    champion = state.champion
    assert champion is not None
    losses = Counter(m.loser for m in state.matches if m.status == PLAYED)
    assert losses[champion] <= 1
    for e in seeds:
        if e == champion:
            continue
        # without the reset, the winners-bracket champion is out after one loss in the grand final
        gf = state.match("GF")
        once_ok = not reset and e == gf.loser and e == gf.home
        assert losses[e] == 2 or (once_ok and losses[e] == 1), (e, losses[e])
    assert all(m.status in (PLAYED, WALKOVER, NOT_NEEDED) for m in state.matches)


def test_grand_final_reset_is_played_only_when_the_losers_bracket_champion_wins() -> None:
    bracket = double_elimination(ids(2))
    base = {"W1-1": "e000"}
    state = progress(bracket, {**base, "GF": "e000"})
    assert state.champion == "e000" and state.match("GF2").status == NOT_NEEDED
    state = progress(bracket, {**base, "GF": "e001"})
    assert state.champion is None and state.match("GF2").status == READY
    state = progress(bracket, {**base, "GF": "e001", "GF2": "e001"})
    assert state.champion == "e001"


def test_results_are_checked() -> None:
    bracket = single_elimination(ids(4))
    with pytest.raises(CompetitionError) as err:
        progress(bracket, {"W1-1": "e001"})
    assert err.value.code == "winner-not-playing"
    with pytest.raises(CompetitionError) as err:
        progress(bracket, {"W2-1": "e000"})
    assert err.value.code == "match-not-ready"
    with pytest.raises(CompetitionError):
        progress(bracket, {"X": "e000"})
    with pytest.raises(CompetitionError):
        single_elimination(["a"])


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 80), k=st.integers(1, 3), size=st.integers(3, 6), salt=st.integers(0, 10**6))
def test_elimination_by_tables_reaches_one_champion(n: int, k: int, size: int, salt: int) -> None:
    tables = number_tables(snake(ids(n), table_sizes(n, 2, size)))
    alive = set(ids(n))
    step = 0
    while True:
        outcomes = [
            TableOutcome(t.number, tuple(sorted(t.seats, key=lambda e: mix(salt, step, e)))) for t in tables
        ]
        result = eliminate_by_tables(tables, outcomes, k, size)
        assert set(result.advancing) | set(result.eliminated) == alive
        assert not set(result.advancing) & set(result.eliminated)
        assert result.eliminated, "every round sends someone home"
        alive = set(result.advancing)
        if result.champion is not None:
            assert len(tables) == 1 and result.advancing == (result.champion,)
            break
        tables = result.next_tables
        seated = [e for t in tables for e in t.seats]
        assert sorted(seated) == sorted(alive)
        sizes = [t.size for t in tables]
        assert max(sizes) - min(sizes) <= 1 and max(sizes) <= size
        if len(alive) <= size:
            assert len(tables) == 1
        step += 1


def test_elimination_by_tables_orders_advancers_by_placement() -> None:
    tables = number_tables([("a", "b", "c"), ("d", "e", "f")])
    outcomes = [TableOutcome(1, ("c", "a", "b")), TableOutcome(2, ("d", "f", "e"))]
    result = eliminate_by_tables(tables, outcomes, 2)
    assert result.advancing == ("c", "d", "a", "f")
    assert result.eliminated == ("b", "e")
    assert len(result.next_tables) == 1  # four fit one table: the final table
    with pytest.raises(CompetitionError):
        eliminate_by_tables(tables, outcomes[:1], 2)


def test_walkovers_are_the_matches_an_entry_wins_against_nobody() -> None:
    seeds = ids(6)  # a bracket of 8: seeds 1 and 2 have byes
    bracket = double_elimination(seeds)
    before = progress(bracket, {})
    assert [(m.id, m.winner) for m in walkovers(before)] == [("W1-1", seeds[0]), ("W1-3", seeds[1])]
    assert [m.id for m in walkovers(before)] == [m.id for m in before.matches if m.id in ("W1-1", "W1-3")]
    # Round 1 is played: its losers meet nobody in the losers bracket's first round.
    winners = {"W1-2": seeds[3], "W1-4": seeds[2]}
    after = progress(bracket, winners)
    assert [(m.id, m.winner) for m in walkovers(after)] == [
        ("W1-1", seeds[0]),
        ("W1-3", seeds[1]),
        ("L1-1", seeds[4]),
        ("L1-2", seeds[5]),
    ]
    assert all(m.status == WALKOVER for m in walkovers(after))
    # A match between two byes is decided, but nobody goes on from it.
    five = progress(double_elimination(ids(5)), {})  # seeds 1, 2, 3 have byes
    both_byes = [m.id for m in five.matches if m.status == WALKOVER and m.winner is None]
    assert both_byes == ["L1-2"]  # the losers of W1-3 and W1-4 (both byes)
    assert [m.id for m in walkovers(five)] == ["W1-1", "W1-3", "W1-4"]
    assert walkovers(progress(single_elimination(ids(8)), {})) == ()


# ---------------------------------------------------------------- ranking by the round reached, forfeits


def _tiers_check(bracket: Bracket, state: BracketProgress) -> list[list[str]]:
    tiers = bracket_tiers(bracket, state)
    flat = [e for tier in tiers for e in tier]
    assert sorted(flat) == sorted(bracket.seeds)  # everyone once
    return tiers


@given(n=st.integers(2, 70), third=st.booleans(), salt=st.integers(0, 10**6))
def test_single_elimination_ranks_by_the_round_reached(n: int, third: bool, salt: int) -> None:
    bracket = single_elimination(ids(n), third_place=third)
    state, _winners = play_out(bracket, salt)
    tiers = _tiers_check(bracket, state)
    final = state.match(bracket.final)
    assert tiers[0] == [state.champion] and tiers[1] == [final.loser]
    out_in = {m.loser: m.round for m in state.matches if m.status == PLAYED and m.side == "winners"}
    third_match = next((m for m in state.matches if m.side == THIRD_PLACE), None)
    rest = [tier for tier in tiers[2:]]
    if third_match is not None and third_match.status == PLAYED:
        assert rest[0] == [third_match.winner] and rest[1] == [third_match.loser]
        rest = rest[2:]
    # Later rounds first; a tier is the losers of one round, sharing their place.
    rounds = [{out_in[e] for e in tier} for tier in rest]
    assert all(len(r) == 1 for r in rounds)
    assert [r.pop() for r in rounds] == sorted((out_in[t[0]] for t in rest), reverse=True)


@given(n=st.integers(2, 40), reset=st.booleans(), salt=st.integers(0, 10**6))
def test_double_elimination_ranks_by_the_losers_bracket_round(n: int, reset: bool, salt: int) -> None:
    bracket = double_elimination(ids(n), grand_final_reset=reset)
    state, _winners = play_out(bracket, salt)
    tiers = _tiers_check(bracket, state)
    assert tiers[0] == [state.champion] and len(tiers[1]) == 1
    finalists = {m.home for m in state.matches if m.id == "GF"} | {
        m.away for m in state.matches if m.id == "GF"
    }
    assert {tiers[0][0], tiers[1][0]} == finalists
    out_in = {m.loser: m.round for m in state.matches if m.status == PLAYED and m.side == "losers"}
    keys = [{out_in[e] for e in tier} for tier in tiers[2:]]
    assert all(len(k) == 1 for k in keys)
    flat = [k.pop() for k in keys]
    assert flat == sorted(flat, reverse=True) and len(set(flat)) == len(flat)


def test_a_double_forfeit_sends_nobody_on_and_the_next_opponent_goes_through() -> None:
    bracket = single_elimination(ids(4))  # 1 v 4, 2 v 3
    first = {m.id: m for m in progress(bracket, {}).matches if m.round == 1}
    one_v_four, two_v_three = sorted(first)
    state = progress(bracket, {one_v_four: DOUBLE_FORFEIT, two_v_three: first[two_v_three].home or ""})
    final = state.match(bracket.final)
    assert final.status == WALKOVER and final.winner == first[two_v_three].home
    assert state.champion == first[two_v_three].home
    tiers = _tiers_check(bracket, state)
    # The champion, then nobody lost the final, then 2 v 3's loser, then both forfeiters.
    assert tiers[0] == [state.champion]
    assert tiers[-1] == sorted(state.match(one_v_four).out, key=ids(4).index)
    # A walkover whose one entry forfeits (it withdrew) carries nobody on either.
    lone = single_elimination(ids(3))  # seed 1 has a bye
    opening = next(m for m in progress(lone, {}).matches if m.round == 1 and m.status == READY)
    forfeited_bye = next(m for m in progress(lone, {}).matches if m.status == WALKOVER)
    state = progress(lone, {forfeited_bye.id: DOUBLE_FORFEIT, opening.id: opening.home or ""})
    assert state.match(forfeited_bye.id).status == FORFEITED
    assert state.champion == opening.home


@given(groups=st.integers(2, 8), per_group=st.integers(1, 3))
def test_group_mates_do_not_meet_in_the_first_round_where_sizes_allow(groups: int, per_group: int) -> None:
    # Seeds as groups hand them on: all winners, then all runners-up, …; every other place in
    # reversed group order, which pairs each winner with its own runner-up (1 v N).
    seeds = [
        f"g{g}p{p}"
        for p in range(per_group)
        for g in (range(groups) if p % 2 == 0 else reversed(range(groups)))
    ]
    group_of = {s: int(s[1 : s.index("p")]) for s in seeds}
    arranged = separate_groups(seeds, group_of)
    assert sorted(arranged) == sorted(seeds)
    size = 1 << (len(seeds) - 1).bit_length()
    pairs = [(arranged[i], arranged[size - 1 - i]) for i in range(size // 2) if size - 1 - i < len(arranged)]
    assert all(group_of[a] != group_of[b] for a, b in pairs)
    # The better half (the top seeds of each pairing) keeps its places.
    assert [arranged[i] for i, _ in enumerate(pairs)] == [seeds[i] for i, _ in enumerate(pairs)]
