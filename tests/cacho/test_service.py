"""The one write path: decide + append in one transaction, conflicts, idempotent command ids,
server-rolled fair dice, timers, projections equal to a rebuild."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connections

from cacho.engine import alalay
from cacho.engine.errors import RuleError
from cacho.engine.games import game_for
from cacho.engine.viewer import Viewer
from cacho.eventlog import projections
from cacho.models import DiceSeed, Event, LiveTable, Match, MatchSummary
from cacho.services import matches
from cacho.services.dispatch import DISPATCH
from cacho.services.state_cache import engine_events
from cacho.services.verify import verify_match
from tests.cacho.helpers import command_id, legal_bidding_move, play, state_of

pytestmark = [pytest.mark.usefixtures("committed_db"), pytest.mark.sqlite_too]


def versions(match: Match) -> list[int]:
    return list(Event.objects.filter(stream=match).order_by("version").values_list("version", flat=True))


def test_creating_a_bidding_match_starts_its_first_round_with_committed_dice() -> None:
    match = matches.create_match("cacho-online", ["ana", "beto", "caro"])
    types = list(Event.objects.filter(stream=match).order_by("version").values_list("type", flat=True))
    assert types == ["match_started", "round_started"]
    started = Event.objects.get(stream=match, type="round_started")
    assert started.metadata["dice"]["scope"] == "round-1"
    assert "reveal" not in started.metadata
    seed = DiceSeed.objects.get(match=match, scope="round-1")
    assert not seed.revealed and started.metadata["dice"]["commitment"] == seed.commitment
    assert seed.seed not in str(started.metadata)


def test_a_repeated_command_id_returns_the_first_result_and_writes_nothing() -> None:
    match = matches.create_match("dudo", ["ana", "beto"], first_seat=0)
    first = matches.submit(match.pk, "ana", {"type": "bid", "quantity": 2, "face": 3}, "same-id", 2)
    again = matches.submit(match.pk, "ana", {"type": "bid", "quantity": 2, "face": 3}, "same-id", 2)
    assert again.repeated and not first.repeated
    assert [e.position for e in again.events] == [e.position for e in first.events]
    # A different body under the same id is not a repeat (tests/cacho/test_command_ids.py).
    with pytest.raises(matches.CommandIdReused):
        matches.submit(match.pk, "ana", {"type": "dudo"}, "same-id")
    assert versions(match) == [1, 2, 3]


def test_an_illegal_command_raises_the_engine_code_and_stores_nothing() -> None:
    match = matches.create_match("dudo", ["ana", "beto"], first_seat=0)
    with pytest.raises(RuleError) as error:
        matches.submit(match.pk, "beto", {"type": "bid", "quantity": 2, "face": 3}, command_id())
    assert error.value.code == "not-your-turn"
    with pytest.raises(RuleError) as error:
        matches.submit(match.pk, "ana", {"type": "bid", "quantity": 2, "face": 3, "x": 1}, command_id())
    assert error.value.code == "unknown-field"
    assert versions(match) == [1, 2]


def test_a_stale_expected_version_is_a_conflict() -> None:
    match = matches.create_match("dudo", ["ana", "beto"], first_seat=0)
    with pytest.raises(matches.VersionConflict) as conflict:
        matches.submit(match.pk, "ana", {"type": "bid", "quantity": 2, "face": 3}, command_id(), 1)
    assert conflict.value.current_version == 2


def test_fifty_concurrent_conflicting_commands_apply_exactly_one() -> None:
    match = matches.create_match("dudo", ["ana", "beto"], first_seat=0)
    barrier = threading.Barrier(50)
    outcomes: list[Any] = []
    lock = threading.Lock()

    def attempt(number: int) -> None:
        try:
            barrier.wait()
            result: Any = matches.submit(
                match.pk, "ana", {"type": "bid", "quantity": 1 + number % 3, "face": 4}, f"c-{number}", 2
            )
        except matches.VersionConflict as exc:
            result = exc
        except BaseException as exc:
            result = exc
        finally:
            connections.close_all()
        with lock:
            outcomes.append(result)

    threads = [threading.Thread(target=attempt, args=(n,)) for n in range(50)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    applied = [o for o in outcomes if isinstance(o, matches.Result)]
    conflicts = [o for o in outcomes if isinstance(o, matches.VersionConflict)]
    assert len(applied) == 1 and len(conflicts) == 49, outcomes
    assert all(c.current_version == 3 for c in conflicts)
    assert versions(match) == [1, 2, 3]
    assert Event.objects.filter(stream=match, command_id__isnull=False).count() == 1


def test_every_round_is_committed_before_play_and_revealed_when_it_resolves() -> None:
    match = matches.create_match("dudo", ["ana", "beto", "caro"], first_seat=1)
    rng = random.Random(7)
    for _ in range(200):
        state = state_of(match)
        if state.phase == "over":
            break
        player, command = legal_bidding_move(state, rng)
        play(match, player, **command)
    assert state_of(match).phase == "over"
    report = verify_match(match)
    assert report["valid"], report
    rounds = Event.objects.filter(stream=match, type="round_started").count()
    assert len(report["verified_scopes"]) == rounds and report["unrevealed_scopes"] == []
    assert Match.objects.get(pk=match.pk).status == Match.STATUS_FINISHED
    assert not DiceSeed.objects.filter(match=match, revealed=False).exists()


def test_alalay_throws_are_server_rolled_from_one_seed_per_turn() -> None:
    match = matches.create_match("alalay", ["ana", "beto"], first_seat=0)
    thrown = matches.submit(match.pk, "ana", {"type": "throw"}, command_id())
    dice = thrown.events[0].payload["dice"]
    assert len(dice) == 5 and thrown.events[0].metadata["dice"]["scope"] == "turn-0-0"
    state = state_of(match)
    if not state.over:
        matches.submit(match.pk, "ana", {"type": "reroll", "keep": dice[:2]}, command_id())
        state = state_of(match)
    while not state.over and state.to_act == "ana":
        step = alalay.auto_play(state)
        assert step is not None and not isinstance(step, alalay.RollRequest)
        payload: dict[str, Any] = {"type": type(step).__name__.lower().replace("turndie", "turn")}
        if isinstance(step, alalay.TurnDie):
            payload["position"] = step.position
        elif isinstance(step, alalay.Score | alalay.Scratch):
            payload["box"] = step.box
        matches.submit(match.pk, "ana", payload, command_id())
        state = state_of(match)
    report = verify_match(match)
    assert report["valid"], report
    assert report["verified_scopes"] == ["turn-0-0"]
    with pytest.raises(RuleError) as error:
        matches.submit(match.pk, "ana", {"type": "reroll", "keep": "66"}, command_id())
    assert error.value.code == "invalid-field"


def test_a_turn_timer_acts_once_and_only_for_its_version() -> None:
    match = matches.create_match("dudo", ["ana", "beto"], first_seat=0, turn_seconds=1)
    row = Match.objects.get(pk=match.pk)
    assert row.deadline_ms is not None
    assert matches.expire_turn(match.pk, row.version, row.deadline_ms - 1) is None  # too early: nothing
    result = matches.expire_turn(match.pk, row.version, row.deadline_ms)
    assert result is not None and result.events[0].payload["timed_out"] is True
    assert result.events[0].metadata["at"] == row.deadline_ms  # played at the time it was given
    assert matches.expire_turn(match.pk, row.version, row.deadline_ms + 5000) is None  # repeated, late
    assert versions(match)[-1] == result.version


def test_a_timer_task_run_in_process_before_its_deadline_does_not_chase_it() -> None:
    """An eager Celery runs an ETA task at once: the early timer leaves the turn to the
    sweep instead of scheduling itself again and again (a recursion, 30 s deep)."""
    from cacho.tasks import expire_turn
    from project.celery import app

    match = matches.create_match("dudo", ["ana", "beto"], first_seat=0, turn_seconds=30)
    row = Match.objects.get(pk=match.pk)
    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, True
    try:
        assert expire_turn.apply((str(match.pk), row.version)).get() is None
    finally:
        app.conf.task_always_eager, app.conf.task_eager_propagates = saved
    assert versions(match)[-1] == row.version  # the turn is still the player's


def test_an_alalay_turn_timer_finishes_the_turn_with_fair_dice() -> None:
    match = matches.create_match("alalay", ["ana", "beto"], first_seat=0, turn_seconds=1)
    row = Match.objects.get(pk=match.pk)
    assert row.deadline_ms is not None
    result = matches.expire_turn(match.pk, row.version, row.deadline_ms)
    assert result is not None
    assert result.events[0].type == "turn_timed_out"
    state = state_of(match)
    assert state.over or state.to_act == "beto"
    report = verify_match(match)
    assert report["valid"] and report["verified_scopes"] == ["turn-0-0"], report


def projection_rows(match: Match) -> tuple[dict[str, Any], dict[str, Any]]:
    DISPATCH.drain()  # projections are written after commit, off the caller's thread
    summary = MatchSummary.objects.filter(match=match).values().get()
    live = LiveTable.objects.filter(match=match).values().get()
    return summary, live


def test_incremental_projections_equal_a_rebuild_and_the_replayed_stream() -> None:
    games = [
        matches.create_match("dudo", ["ana", "beto", "caro"], first_seat=0),
        matches.create_match("cacho-chileno", ["ana", "beto"], first_seat=1),
        matches.create_match("alalay", ["ana", "beto"], first_seat=0),
    ]
    rng = random.Random(3)
    for match in games[:2]:
        for _ in range(30):
            state = state_of(match)
            if state.phase == "over":
                break
            player, command = legal_bidding_move(state, rng)
            play(match, player, **command)
    matches.submit(games[2].pk, "ana", {"type": "throw"}, command_id())
    incremental = {m.pk: projection_rows(m) for m in games}
    call_command("rebuild_projections", stdout=open("/dev/null", "w"))  # noqa: SIM115
    for match in games:
        assert projection_rows(match) == incremental[match.pk]
        fresh = Match.objects.get(pk=match.pk)
        game = game_for(fresh.ruleset)
        replayed = game.replay(engine_events(fresh, game))
        summary, live = incremental[match.pk]
        assert summary["version"] == fresh.version == live["version"]
        assert summary["to_act"] == (game.to_act(replayed) or "")
        assert summary["scores"] == game.scores(replayed)
        assert live["view"] == game.view(replayed, Viewer.spectator())
    MatchSummary.objects.all().delete()
    LiveTable.objects.all().delete()
    assert projections.rebuild_all() == 3
    for match in games:
        rebuilt = projection_rows(match)
        assert rebuilt[0] | {"last_event_at": None} == incremental[match.pk][0] | {"last_event_at": None}
        assert rebuilt[1] == incremental[match.pk][1]


def test_a_stale_cache_never_decides_a_command_wrongly() -> None:
    """Another process appended meanwhile: the optimistic path notices and the locked
    path decides on the real state (a stale cache must not refuse a legal move)."""
    match = matches.create_match("dudo", ["ana", "beto"], first_seat=0)
    entry = matches.STATES.get(str(match.pk))
    assert entry is not None
    matches.submit(match.pk, "ana", {"type": "bid", "quantity": 2, "face": 3}, command_id())
    matches.STATES.clear()
    matches.STATES.put(entry)  # as if this process had missed version 3
    result = matches.submit(match.pk, "beto", {"type": "bid", "quantity": 3, "face": 3}, command_id())
    assert result.version == 4 and not result.repeated
    assert versions(match) == [1, 2, 3, 4]
    matches.STATES.clear()
    matches.STATES.put(entry)
    with pytest.raises(RuleError) as error:  # judged on the real state: ana's turn again
        matches.submit(match.pk, "beto", {"type": "bid", "quantity": 4, "face": 3}, command_id())
    assert error.value.code == "not-your-turn"
    assert verify_match(match)["valid"]
