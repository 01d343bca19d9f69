"""One adapter per game, with one interface: the match service hosts any game through it.

`GAMES["dudo"]` serves the four bidding rulesets, `GAMES["alalay"]` Cacho Alalay;
`game_for(ruleset)` picks one. Everything here is pure (standard library only):
dice and time are inputs. A command that needs fresh dice (a round's dice, an
Alalay throw or re-roll) comes back as `DiceNeeded`: the shell rolls `count` dice
from the fairness stream of `scope` and calls `build(dice)`.

`parse_command` turns a client's JSON payload (without the envelope: command id,
expected version) into a command, strictly: unknown fields, missing fields and
wrong JSON types are `RuleError`s with the codes `unknown-command-type`,
`unknown-field`, `missing-field`, `invalid-field`.

`parse_ruling` does the same for a referee's ruling (`cacho.engine.rulings`): the
command it returns is decided by the same `decide`. A paused match has no turn key, so
no deadline and no timeout step, while its dice scope stays that of the turn in play.

`Game.traits` and `Game.table_line` (cacho.engine.traits) say what the shells draw
differently for a game, so that none of them branches on its name.

Modules: `protocol` (`Game`, `DiceNeeded`, `OptionSpec`, `EngineGame`), `payloads` (the
strict parsing every adapter shares), one adapter per game (`bidding_family`,
`alalay_game`) and `registry` (`GAMES`, `game_named`, `game_for`).
"""

from cacho.engine.games.alalay_game import BOX_NAMES, AlalayGame
from cacho.engine.games.bidding_family import BiddingGame
from cacho.engine.games.protocol import Command, DiceNeeded, EngineGame, Event, Game, OptionSpec, State
from cacho.engine.games.registry import GAMES, game_for, game_named

__all__ = [
    "BOX_NAMES",
    "GAMES",
    "AlalayGame",
    "BiddingGame",
    "Command",
    "DiceNeeded",
    "EngineGame",
    "Event",
    "Game",
    "OptionSpec",
    "State",
    "game_for",
    "game_named",
]
