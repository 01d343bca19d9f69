"""A match's projections wait their hold (`CACHO_PROJECTION_HOLD`), on PostgreSQL where the
dispatch thread writes them (SQLite's one writer writes them inline, never held)."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest

from cacho.models import LiveTable, Match, MatchSummary
from cacho.services import matches
from cacho.services.dispatch import DISPATCH
from tests.cacho.helpers import command_id, legal_bidding_move, state_of

pytestmark = pytest.mark.usefixtures("committed_db")


def worker_looked() -> None:
    """Return once the dispatch thread has run everything due now (an immediate call)."""
    done = threading.Event()
    DISPATCH.call(done.set)
    assert done.wait(10)


def test_a_moving_matchs_projections_wait_their_hold_and_its_end_is_written_at_once(settings: Any) -> None:
    """Moves made within the hold leave the rows where they were; the move that ends the
    match is written at once, whatever the hold (lists must not show it live)."""
    settings.CACHO_PROJECTION_HOLD = 30.0
    match = matches.create_match("dudo", ["ana", "beto"], first_seat=0)
    DISPATCH.drain()
    written = LiveTable.objects.get(match=match).version
    rng = random.Random(1)
    for _ in range(2):
        player, payload = legal_bidding_move(state_of(match), rng)
        matches.submit(match.pk, player, payload, command_id())
    worker_looked()
    assert Match.objects.get(pk=match.pk).version > written
    assert LiveTable.objects.get(match=match).version == written
    matches.submit(match.pk, "beto", {"type": "abandon"}, command_id())  # two players: ana wins
    final = Match.objects.get(pk=match.pk).version
    deadline = time.monotonic() + 10
    while MatchSummary.objects.get(match=match).version != final and time.monotonic() < deadline:
        time.sleep(0.05)
    summary = MatchSummary.objects.get(match=match)
    assert (summary.version, summary.status, summary.winners) == (final, Match.STATUS_FINISHED, ["ana"])
    assert LiveTable.objects.get(match=match).version == final
