"""Seeds for provably fair dice: drawn here with `secrets`; the dice come from
`cacho.engine.fairness` (pure, recomputable by anyone once the seed is revealed)."""

from __future__ import annotations

import secrets

from cacho.engine import fairness as derivation


def new_seed() -> str:
    """A fresh secret seed (hexadecimal), never shown to anyone before its reveal."""
    return secrets.token_hex(derivation.SEED_BYTES)


def commitment(seed_hex: str) -> str:
    return derivation.commitment(seed_hex)


def roll(seed_hex: str, count: int, offset: int) -> tuple[int, ...]:
    return derivation.dice(seed_hex, count, offset)


def draw_index(count: int) -> int:
    """A uniformly random index below `count` (who starts, who throws first)."""
    return secrets.randbelow(count)
