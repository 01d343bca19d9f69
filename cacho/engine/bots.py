"""What the bot policies need of randomness: the engine never draws, so a bot is handed a
source (`random.Random` satisfies this) by its shell, a test or a bench.

The policies themselves are each game's `bots.py`, reached through the game adapter
(`Game.bot_payload`, `Game.bot_payload_for_view`): they answer with the JSON payload a
player's client would send, from what that player sees.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

T = TypeVar("T")


class BotRandom(Protocol):
    def random(self) -> float: ...

    def randrange(self, start: int, stop: int, /) -> int: ...


def pick(rng: BotRandom, items: Sequence[T]) -> T:
    return items[rng.randrange(0, len(items))]
