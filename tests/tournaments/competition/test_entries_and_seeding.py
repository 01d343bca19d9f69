from __future__ import annotations

import hashlib
import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.tournaments.competition.helpers import SEED, ids, seed_hex
from tournaments.competition.entries import (
    INDIVIDUAL,
    PAIR,
    TEAM,
    Entry,
    Withdrawal,
    active_entries,
    validate_entries,
)
from tournaments.competition.errors import CompetitionError
from tournaments.competition.seeding import (
    DRAW,
    MANUAL,
    RATING,
    SeedingRequest,
    commitment,
    draw_order,
    seed_entries,
    uniform_below,
    verify_draw,
    word_stream,
)


def test_entry_kinds_and_validation() -> None:
    assert Entry("a").kind == INDIVIDUAL
    assert Entry("b", members=("x", "y")).kind == PAIR
    assert Entry("c", members=("x", "y", "z")).kind == TEAM
    with pytest.raises(CompetitionError) as err:
        validate_entries([Entry("a"), Entry("a")])
    assert err.value.code == "entry-duplicate"
    with pytest.raises(CompetitionError):
        validate_entries([Entry("a", seed=1), Entry("b", seed=1)])


def test_withdrawals_apply_after_their_round() -> None:
    entries = [Entry(i) for i in ids(4)]
    gone = [Withdrawal("e001", after_round=2), Withdrawal("e003")]
    assert [e.id for e in active_entries(entries, gone, 1)] == ["e000", "e001", "e002"]
    assert [e.id for e in active_entries(entries, gone, 3)] == ["e000", "e002"]


def test_commitment_is_sha256_of_the_seed_bytes() -> None:
    assert commitment(SEED) == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()
    with pytest.raises(CompetitionError):
        commitment("zz")
    with pytest.raises(CompetitionError):
        commitment("00ff")


@given(n=st.integers(0, 60), seed=seed_hex)
def test_draw_is_a_reproducible_permutation_matching_its_commitment(n: int, seed: str) -> None:
    entry_ids = ids(n)
    order = draw_order(entry_ids, seed)
    assert sorted(order) == entry_ids
    assert draw_order(entry_ids, seed) == order
    assert verify_draw(entry_ids, seed, commitment(seed), order)
    if n >= 2:
        assert not verify_draw(entry_ids, seed, commitment(seed), tuple(reversed(order))) or order == tuple(
            reversed(order)
        )
        assert not verify_draw(entry_ids, seed, "0" * 64, order)


def test_draw_is_pinned_by_the_documented_algorithm() -> None:
    """An independent re-implementation of the published procedure gives the same order."""
    seed = bytes.fromhex(SEED)
    words: list[int] = []
    for counter in range(4):
        block = hashlib.sha256(seed + counter.to_bytes(8, "big")).digest()
        words.extend(int.from_bytes(block[i : i + 4], "big") for i in range(0, 32, 4))
    stream = iter(words)
    order = ids(10)
    for i in range(9, 0, -1):
        n = i + 1
        limit = 2**32 - 2**32 % n
        w = next(stream)
        while w >= limit:
            w = next(stream)
        j = w % n
        order[i], order[j] = order[j], order[i]
    assert draw_order(ids(10), SEED) == tuple(order)


def test_uniform_below_rejects_the_biased_tail() -> None:
    # 2**32 - 1 lies in the rejected tail for n = 3 (2**32 % 3 == 1): the next word is used.
    stream = iter([2**32 - 1, 7])
    assert uniform_below(stream, 3) == 1
    with pytest.raises(CompetitionError):
        uniform_below(word_stream(SEED), 0)


def test_draw_positions_are_roughly_uniform() -> None:
    # Every entry lands first about equally often over many seeds (a smoke test of bias).
    counts = dict.fromkeys(ids(4), 0)
    for k in range(2000):
        seed = hashlib.sha256(k.to_bytes(4, "big")).hexdigest()
        counts[draw_order(ids(4), seed)[0]] += 1
    assert all(400 < c < 600 for c in counts.values())


@given(
    ratings=st.lists(st.one_of(st.none(), st.integers(1000, 1010)), min_size=1, max_size=20), seed=seed_hex
)
def test_rating_seeding_orders_by_rating_and_numbers_seeds(ratings: list[int | None], seed: str) -> None:
    entries = [Entry(f"e{i}", rating=r) for i, r in enumerate(ratings)]
    for request in (SeedingRequest(RATING), SeedingRequest(RATING, seed_hex=seed)):
        seeded = seed_entries(entries, request)
        assert [e.seed for e in seeded] == list(range(1, len(entries) + 1))
        values = [float("-inf") if e.rating is None else e.rating for e in seeded]
        assert values == sorted(values, reverse=True)
    plain = seed_entries(entries, SeedingRequest(RATING))
    # equal ratings keep the given order when no draw is asked for
    for a, b in itertools.pairwise(plain):
        if a.rating == b.rating:
            assert int(a.id[1:]) < int(b.id[1:])


def test_manual_and_draw_seeding() -> None:
    entries = [Entry(i) for i in ids(5)]
    manual = seed_entries(
        entries, SeedingRequest(MANUAL, manual_order=("e004", "e000", "e001", "e002", "e003"))
    )
    assert [e.id for e in manual] == ["e004", "e000", "e001", "e002", "e003"]
    with pytest.raises(CompetitionError):
        seed_entries(entries, SeedingRequest(MANUAL, manual_order=("e000",)))
    drawn = seed_entries(entries, SeedingRequest(DRAW, seed_hex=SEED))
    assert tuple(e.id for e in drawn) == draw_order(ids(5), SEED)
    with pytest.raises(CompetitionError):
        seed_entries(entries, SeedingRequest(DRAW))
    with pytest.raises(CompetitionError):
        seed_entries(entries, SeedingRequest("coin"))
