"""The dice derivation: deterministic, committed, unbiased (rejection sampling, no modulo)."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cacho.engine import fairness

seeds = st.binary(min_size=32, max_size=32).map(bytes.hex)


@given(seeds)
def test_commitment_is_sha256_of_the_seed_and_check_accepts_only_it(seed: str) -> None:
    assert fairness.commitment(seed) == hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    assert fairness.check(seed, fairness.commitment(seed))
    other = ("0" if seed[0] != "0" else "1") + seed[1:]
    assert not fairness.check(other, fairness.commitment(seed))
    assert not fairness.check("not hex", fairness.commitment(seed))


@given(seeds, st.integers(0, 40), st.integers(0, 40))
def test_dice_are_faces_and_consecutive_draws_continue_one_stream(seed: str, first: int, second: int) -> None:
    whole = fairness.dice(seed, first + second)
    assert all(1 <= face <= 6 for face in whole)
    assert fairness.dice(seed, first) + fairness.dice(seed, second, offset=first) == whole
    assert fairness.dice(seed, first + second) == whole  # deterministic


def test_bytes_from_252_up_are_rejected() -> None:
    seed = "00" * 32
    block = hashlib.sha256(bytes.fromhex(seed) + (0).to_bytes(8, "big")).digest()
    expected = [byte % 6 + 1 for byte in block if byte < 252]
    assert list(fairness.dice(seed, len(expected))) == expected


def test_faces_are_uniform() -> None:
    counts = Counter(fairness.dice("ab" * 32, 60_000))
    for face in range(1, 7):
        assert abs(counts[face] - 10_000) < 500, counts


@pytest.mark.parametrize("bad", ["", "zz" * 32, "00" * 31, "00" * 33])
def test_malformed_seeds_are_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        fairness.commitment(bad)
