"""Provably fair dice: the pure derivation (the shell draws the seed with `secrets`).

The server commits to a secret seed (`commitment(seed) = sha256(seed bytes)`) before
anyone acts and reveals the seed afterwards; anyone can then recompute the dice:

* the byte stream is SHA-256(seed || counter), counter = 0, 1, 2 … as 8 big-endian bytes,
  concatenated;
* each byte `b` gives a die when `b < 252` (252 = 6 × 42): face `b % 6 + 1`; bytes 252–255
  are rejected, so every face has probability exactly 1/6 (no modulo bias);
* the n-th die of a seed is the n-th accepted byte: a round's (or turn's) throws take
  consecutive dice from the same stream (`dice(seed, count, offset)`).

Standard library only: no randomness here, the seed is an input.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

SEED_BYTES = 32
REJECT_FROM = 252  # the largest multiple of 6 not above 256


def _seed_bytes(seed_hex: str) -> bytes:
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError as exc:
        raise ValueError("a seed is hexadecimal") from exc
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a seed has {SEED_BYTES} bytes")
    return seed


def commitment(seed_hex: str) -> str:
    """The public commitment to a seed: sha256 of its bytes, hexadecimal."""
    return hashlib.sha256(_seed_bytes(seed_hex)).hexdigest()


def die_stream(seed_hex: str) -> Iterator[int]:
    """Unbounded stream of dice (1–6) derived from the seed, by rejection sampling."""
    seed = _seed_bytes(seed_hex)
    counter = 0
    while True:
        block = hashlib.sha256(seed + counter.to_bytes(8, "big")).digest()
        for byte in block:
            if byte < REJECT_FROM:
                yield byte % 6 + 1
        counter += 1


def dice(seed_hex: str, count: int, offset: int = 0) -> tuple[int, ...]:
    """`count` dice of the seed's stream, skipping the first `offset`."""
    if count < 0 or offset < 0:
        raise ValueError("count and offset are not negative")
    stream = die_stream(seed_hex)
    for _ in range(offset):
        next(stream)
    return tuple(next(stream) for _ in range(count))


def check(seed_hex: str, expected_commitment: str) -> bool:
    """Whether the revealed seed matches its commitment."""
    try:
        return commitment(seed_hex) == expected_commitment
    except ValueError:
        return False
