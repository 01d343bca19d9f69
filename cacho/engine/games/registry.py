"""The games by key (`GAMES`) and the two lookups: by a match's game, by a ruleset."""

from __future__ import annotations

from cacho.engine.errors import RuleError
from cacho.engine.games.alalay_game import AlalayGame
from cacho.engine.games.bidding_family import BiddingGame
from cacho.engine.games.protocol import Game

GAMES: dict[str, Game] = {"dudo": BiddingGame(), "alalay": AlalayGame()}


def game_named(name: str) -> Game:
    """The game called `name` (a match's or a view's `game`); RuleError `unknown-game` otherwise."""
    game = GAMES.get(name)
    if game is None:
        raise RuleError("unknown-game", f"unknown game {name!r}")
    return game


def game_for(ruleset: str) -> Game:
    """The game that plays `ruleset`; RuleError `unknown-ruleset` otherwise."""
    for game in GAMES.values():
        if ruleset in game.rulesets():
            return game
    raise RuleError("unknown-ruleset", f"unknown ruleset {ruleset!r}")
