"""Who is looking at a match: the input of every `view` function."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ViewerKind = Literal["player", "spectator", "referee"]


@dataclass(frozen=True)
class Viewer:
    """A seated player (by name), a spectator, or a referee (sees everything)."""

    kind: ViewerKind
    player: str | None = None

    @staticmethod
    def of_player(name: str) -> Viewer:
        return Viewer("player", name)

    @staticmethod
    def spectator() -> Viewer:
        return Viewer("spectator")

    @staticmethod
    def referee() -> Viewer:
        return Viewer("referee")
