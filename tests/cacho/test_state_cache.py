"""A process's cache of match states follows the matches in play: a finished match takes
no more moves, so only the last few finished ones stay (a long evening's web process does
not grow with every match it has served)."""

from __future__ import annotations

import pytest

from cacho.engine.games import game_for
from cacho.models import Match
from cacho.services import matches
from cacho.services.state_cache import FINISHED_MATCHES, STATES, load_state
from tests.cacho.conftest import settle_after_commit_work
from tests.cacho.helpers import command_id

pytestmark = pytest.mark.usefixtures("committed_db")


def test_finished_matches_leave_the_cache_but_the_last_few_and_the_live_ones_stay() -> None:
    live = matches.create_match("dudo", ["ana", "beto", "caro"])
    finished = []
    for number in range(FINISHED_MATCHES + 3):
        match = matches.create_match("dudo", [f"a{number}", f"b{number}"])
        matches.submit(match.pk, f"b{number}", {"type": "abandon"}, command_id())
        finished.append(str(match.pk))
    settle_after_commit_work()
    load_state(Match.objects.get(pk=live.pk), game_for("dudo"))

    assert STATES.get(str(live.pk)) is not None
    kept = [STATES.get(key) is not None for key in finished]
    assert kept == [False] * 3 + [True] * FINISHED_MATCHES
    last = STATES.get(finished[-1])
    assert last is not None and last.head.status == Match.STATUS_FINISHED
    assert last.version == Match.objects.get(pk=finished[-1]).version


def test_a_stale_live_entry_never_hides_the_finished_one() -> None:
    match = matches.create_match("dudo", ["ana", "beto"])
    game = game_for("dudo")
    load_state(Match.objects.get(pk=match.pk), game)  # cached while live
    matches.submit(match.pk, "beto", {"type": "abandon"}, command_id())
    settle_after_commit_work()
    cached = STATES.get(str(match.pk))
    assert cached is not None and cached.head.status == Match.STATUS_FINISHED
    assert cached.version == Match.objects.get(pk=match.pk).version
