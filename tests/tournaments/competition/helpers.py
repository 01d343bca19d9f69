"""Shared helpers for the competition core's tests (no Django, no database)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence

from hypothesis import strategies as st

SEED = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"


def ids(n: int, prefix: str = "e") -> list[str]:
    return [f"{prefix}{i:03d}" for i in range(n)]


def mix(*parts: object) -> int:
    """A deterministic pseudo-random integer for simulations (never used by the code under test)."""
    return int.from_bytes(hashlib.sha256(repr(parts).encode()).digest()[:8], "big")


seed_hex = st.binary(min_size=16, max_size=32).map(bytes.hex)


def partitions(items: Sequence[int], sizes: Sequence[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every split of `items` into unordered groups with the multiset of `sizes` (brute force)."""
    if not items:
        yield []
        return
    first, rest = items[0], list(items[1:])
    for size in sorted(set(sizes)):
        pool = list(sizes)
        pool.remove(size)
        for others in _combinations(rest, size - 1):
            left = [x for x in rest if x not in others]
            for tail in partitions(left, pool):
                yield [(first, *others), *tail]


def _combinations(items: Sequence[int], k: int) -> Iterator[tuple[int, ...]]:
    if k == 0:
        yield ()
        return
    for i in range(len(items) - k + 1):
        for tail in _combinations(items[i + 1 :], k - 1):
            yield (items[i], *tail)
