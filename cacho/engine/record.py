"""Portable match records (`cacho-match/1`): dispatch to the game that reads them.

Each game package has a `record` module with `replay_record(data) -> dict`
(the output of docs/match-record.md) and `write_record(...)`. This module only
checks what every record shares and picks the game.
"""

from __future__ import annotations

import json
from typing import Any

from cacho.engine.errors import RecordFormatError

FORMAT = "cacho-match/1"
RULESETS_BY_GAME: dict[str, frozenset[str]] = {
    "dudo": frozenset({"dudo", "cacho-chileno", "cacho-online", "liars-dice"}),
    "alalay": frozenset({"alalay"}),
}


def parse_record_text(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise RecordFormatError("not-json", f"not JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise RecordFormatError("not-an-object", "a record is a JSON object")
    return data


def check_header(data: dict[str, Any]) -> tuple[str, str]:
    """The record's game and ruleset, after checking they agree."""
    if data.get("format") != FORMAT:
        raise RecordFormatError("unknown-format", f"format must be {FORMAT!r}")
    game = data.get("game")
    if not isinstance(game, str) or game not in RULESETS_BY_GAME:
        raise RecordFormatError("unknown-game", f"unknown game {game!r}")
    ruleset = data.get("ruleset")
    if not isinstance(ruleset, str):
        raise RecordFormatError("missing-ruleset", "ruleset must be a string")
    if ruleset not in RULESETS_BY_GAME[game]:
        raise RecordFormatError("ruleset-game-mismatch", f"ruleset {ruleset!r} is not a {game} ruleset")
    return game, ruleset


def replay_record(data: dict[str, Any]) -> dict[str, Any]:
    """Replay a parsed record; raises RecordFormatError when it is not a record."""
    game, _ = check_header(data)
    if game == "alalay":
        from cacho.engine.alalay.record import replay_record as replay_alalay

        return replay_alalay(data)
    from cacho.engine.bidding.record import replay_record as replay_bidding

    return replay_bidding(data)


def replay_record_text(text: str) -> dict[str, Any]:
    return replay_record(parse_record_text(text))
