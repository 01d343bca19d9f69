"""Portable match records (`cacho-match/1`): dispatch to the game that reads them.

Each game package has a `record` module with `replay_record(data) -> dict`
(the output of docs/match-record.md) and `write_record(...)`; what every record
shares (the format, the header check) is `record_header.py`, which the game
readers import, so this dispatch imports them and nothing imports it back.
"""

from __future__ import annotations

from typing import Any

from cacho.engine.alalay.record import replay_record as replay_alalay
from cacho.engine.bidding.record import replay_record as replay_bidding
from cacho.engine.record_header import FORMAT, RULESETS_BY_GAME, check_header, parse_record_text

__all__ = [
    "FORMAT",
    "RULESETS_BY_GAME",
    "check_header",
    "parse_record_text",
    "replay_record",
    "replay_record_text",
]


def replay_record(data: dict[str, Any]) -> dict[str, Any]:
    """Replay a parsed record; raises RecordFormatError when it is not a record."""
    game, _ = check_header(data)
    if game == "alalay":
        return replay_alalay(data)
    return replay_bidding(data)


def replay_record_text(text: str) -> dict[str, Any]:
    return replay_record(parse_record_text(text))
