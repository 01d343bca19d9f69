"""What every `cacho-match/1` record shares: the format's name, the games with their
rulesets, and the header check. Each game's record reader builds on this; the dispatch
to those readers is `record.py`."""

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
