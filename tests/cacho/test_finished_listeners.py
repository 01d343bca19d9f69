"""The match server tells the listeners named in `CACHO_MATCH_FINISHED` that a match has
ended: once, after the commit that ended it, never before, and a failing listener does not
undo the move nor stop the others."""

from __future__ import annotations

from typing import Any

import pytest

from cacho.engine.errors import RuleError
from cacho.models import Match
from cacho.services import matches
from tests.cacho.helpers import command_id

pytestmark = [pytest.mark.usefixtures("committed_db"), pytest.mark.sqlite_too]

heard: list[Any] = []


def record(match_id: Any) -> None:
    heard.append(("record", str(match_id), Match.objects.get(pk=match_id).status))


def broken(match_id: Any) -> None:
    raise RuntimeError("a listener that fails")


@pytest.fixture(autouse=True)
def listeners(settings: Any) -> None:
    heard.clear()
    settings.CACHO_MATCH_FINISHED = [f"{__name__}.broken", f"{__name__}.record"]


def test_listeners_hear_a_match_end_once_after_its_commit() -> None:
    match = matches.create_match("dudo", ["ana", "beto", "caro"], first_seat=0)
    matches.submit(match.pk, "ana", {"type": "bid", "quantity": 2, "face": 3}, command_id())
    matches.submit(match.pk, "beto", {"type": "abandon"}, command_id())
    assert heard == []  # two players still hold dice
    matches.submit(match.pk, "caro", {"type": "abandon"}, command_id())
    # The broken listener is skipped; the next one sees the committed, finished match.
    assert heard == [("record", str(match.pk), Match.STATUS_FINISHED)]
    with pytest.raises(RuleError):
        matches.submit(match.pk, "ana", {"type": "abandon"}, command_id())
    assert len(heard) == 1  # a finished match is not heard of twice


def test_an_imported_finished_record_is_heard_of() -> None:
    record_data = {
        "format": "cacho-match/1",
        "game": "dudo",
        "ruleset": "liars-dice",
        "players": ["ana", "beto"],
        "setup": {"dice": {"ana": 1, "beto": 1}},
        "rounds": [
            {
                "dice": {"ana": [2], "beto": [3]},
                "actions": [{"by": "ana", "bid": [2, 3]}, {"by": "beto", "call": "dudo"}],
            }
        ],
    }
    match = matches.import_record(record_data)
    assert heard == [("record", str(match.pk), Match.STATUS_FINISHED)]
