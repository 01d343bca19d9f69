"""Seeding: manual, by rating, or a random draw from a committed seed.

The draw is provably fair. The organizer commits to a secret seed before the draw
(`commitment(seed) = sha256(seed bytes)`, published) and reveals the seed afterwards;
anyone can recompute the order with `draw_order` and check it with `verify_draw`:

* the byte stream is SHA-256(seed || counter), counter = 0, 1, 2 … as 8 big-endian bytes,
  concatenated (the same stream as the dice, `cacho.engine.fairness`);
* it is read as 32-bit big-endian words; `uniform_below(n)` rejects words at or above the
  largest multiple of n not above 2**32 and returns `word % n` (no modulo bias);
* the order is a Fisher–Yates shuffle of the ids in the given order:
  for i = n-1 … 1, j = uniform_below(i + 1), swap positions i and j.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from tournaments.competition.entries import Entry, validate_entries
from tournaments.competition.errors import CompetitionError

MIN_SEED_BYTES = 16
WORD = 2**32

MANUAL = "manual"
RATING = "rating"
DRAW = "draw"
METHODS = (MANUAL, RATING, DRAW)


def _seed_bytes(seed_hex: str) -> bytes:
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError as exc:
        raise CompetitionError("seed-not-hex", "a draw seed is hexadecimal") from exc
    if len(seed) < MIN_SEED_BYTES:
        raise CompetitionError("seed-too-short", f"a draw seed has at least {MIN_SEED_BYTES} bytes")
    return seed


def commitment(seed_hex: str) -> str:
    """The public commitment to a seed: sha256 of its bytes, hexadecimal."""
    return hashlib.sha256(_seed_bytes(seed_hex)).hexdigest()


def word_stream(seed_hex: str) -> Iterator[int]:
    """Unbounded stream of 32-bit words from SHA-256(seed || counter)."""
    seed = _seed_bytes(seed_hex)
    counter = 0
    while True:
        block = hashlib.sha256(seed + counter.to_bytes(8, "big")).digest()
        for i in range(0, len(block), 4):
            yield int.from_bytes(block[i : i + 4], "big")
        counter += 1


def uniform_below(words: Iterator[int], n: int) -> int:
    """A uniform integer in [0, n) from the stream, by rejection sampling."""
    if not 0 < n <= WORD:
        raise CompetitionError("draw-range", "a draw picks among 1 to 2**32 choices")
    limit = WORD - WORD % n
    for word in words:
        if word < limit:
            return word % n
    raise AssertionError("the word stream is unbounded")  # pragma: no cover


def draw_order(entry_ids: Sequence[str], seed_hex: str) -> tuple[str, ...]:
    """The ids shuffled by Fisher–Yates on the seed's stream: reproducible from the seed."""
    if len(set(entry_ids)) != len(entry_ids):
        raise CompetitionError("entry-duplicate", "the draw lists every entry once")
    order = list(entry_ids)
    words = word_stream(seed_hex)
    for i in range(len(order) - 1, 0, -1):
        j = uniform_below(words, i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def verify_draw(
    entry_ids: Sequence[str], seed_hex: str, published_commitment: str, order: Sequence[str]
) -> bool:
    """Whether the revealed seed matches its commitment and reproduces `order`."""
    try:
        committed = commitment(seed_hex) == published_commitment
        return committed and draw_order(entry_ids, seed_hex) == tuple(order)
    except CompetitionError:
        return False


@dataclass(frozen=True)
class SeedingRequest:
    """How to seed: `method` is manual (`manual_order` lists every id, top seed first),
    rating (highest first; equal ratings by the draw when `seed_hex` is given, else by
    the entries' order) or draw (`seed_hex` required)."""

    method: str
    manual_order: tuple[str, ...] = ()
    seed_hex: str | None = None


def seed_entries(entries: Sequence[Entry], request: SeedingRequest) -> tuple[Entry, ...]:
    """The entries in seeding order, each with its seed number (1 = top seed)."""
    validate_entries(entries)
    ids = [e.id for e in entries]
    if request.method == MANUAL:
        if sorted(request.manual_order) != sorted(ids):
            raise CompetitionError("manual-seeding-mismatch", "manual seeding lists every entry exactly once")
        order: Sequence[str] = request.manual_order
    elif request.method == RATING:
        base = draw_order(ids, request.seed_hex) if request.seed_hex is not None else tuple(ids)
        position = {entry_id: i for i, entry_id in enumerate(base)}
        rating = {e.id: (e.rating if e.rating is not None else float("-inf")) for e in entries}
        order = sorted(ids, key=lambda i: (-rating[i], position[i]))
    elif request.method == DRAW:
        if request.seed_hex is None:
            raise CompetitionError("draw-seed-missing", "a draw needs its committed seed")
        order = draw_order(ids, request.seed_hex)
    else:
        raise CompetitionError("seeding-method-unknown", f"seeding is one of {', '.join(METHODS)}")
    entry = {e.id: e for e in entries}
    return tuple(replace(entry[entry_id], seed=n) for n, entry_id in enumerate(order, start=1))
