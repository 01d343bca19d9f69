"""Snapshots (cacho.eventlog.snapshots, cacho.engine.snapshot): every game's state survives JSON
exactly; a process that has not seen a match loads the newest snapshot and replays only
the events after it, and gets the same state as a full replay; a snapshot made by other
engine code, or one that does not decode, is ignored."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cacho.engine.games import game_for
from cacho.engine.snapshot import SnapshotError, decode_state, encode_state
from cacho.engine.viewer import Viewer
from cacho.eventlog import snapshots
from cacho.live.bot import choose_command
from cacho.models import Match, Snapshot
from cacho.services import matches
from cacho.services.dispatch import DISPATCH
from cacho.services.presentation import match_json
from cacho.services.state_cache import engine_events
from tests.cacho.helpers import command_id

pytestmark = pytest.mark.usefixtures("committed_db")

GAMES = [
    ("dudo", ["ana", "beto", "caro"]),
    ("cacho-chileno", ["ana", "beto", "caro"]),
    ("cacho-online", ["ana", "beto", "caro", "dani"]),
    ("liars-dice", ["ana", "beto"]),
    ("alalay", ["ana", "beto"]),
]


@pytest.fixture(autouse=True)
def every_ten(settings: Any) -> None:
    settings.CACHO_SNAPSHOT_EVERY = 10
    settings.CACHO_TIMERS = "off"
    snapshots.LATEST.clear()


def play(match: Match, moves: int, seed: int, check: Any = None) -> None:
    """Random legal moves by whoever is on turn, as a bot chooses them from its view."""
    rng = random.Random(seed)
    game = game_for(match.ruleset)
    for _ in range(moves):
        row = Match.objects.get(pk=match.pk)
        state = matches.load_state(row, game)
        if check is not None:
            check(state)
        to_act = game.to_act(state)
        if game.is_over(state) or not to_act:
            return
        command = choose_command(match_json(row, Viewer.of_player(to_act)), rng)
        assert command is not None, (to_act, state)
        matches.submit(match.pk, to_act, command, command_id())


def round_trips(state: Any) -> None:
    encoded = json.loads(json.dumps(encode_state(state)))
    assert decode_state(encoded) == state


@pytest.mark.parametrize(("ruleset", "players"), GAMES)
def test_every_state_of_a_game_survives_json(ruleset: str, players: list[str]) -> None:
    match = matches.create_match(ruleset, players, first_seat=0)
    play(match, 60, seed=len(ruleset), check=round_trips)


def test_the_codec_refuses_what_is_not_an_engine_state() -> None:
    with pytest.raises(SnapshotError):
        encode_state({"a": 1})
    with pytest.raises(SnapshotError):
        encode_state([1, 2])
    for bad in (
        {"dc": "os:system", "f": {}},
        {"dc": "bidding.state:Nope", "f": {}},
        {"dc": "bidding.state:Bid", "f": {"quantity": 1}},  # a field missing
        {"x": 1},
    ):
        with pytest.raises(SnapshotError):
            decode_state(bad)


@pytest.mark.parametrize(("ruleset", "players"), [GAMES[0], GAMES[-1]])
def test_a_cold_process_loads_the_newest_snapshot_and_replays_only_the_rest(
    ruleset: str, players: list[str]
) -> None:
    match = matches.create_match(ruleset, players, first_seat=0)
    play(match, 45, seed=3)
    DISPATCH.drain()
    row = Match.objects.get(pk=match.pk)
    versions = list(
        Snapshot.objects.filter(match=match).order_by("version").values_list("version", flat=True)
    )
    assert versions, "snapshots were stored"
    assert all(b - a >= 10 for a, b in zip([0, *versions], versions, strict=False))
    game = game_for(ruleset)
    replayed = game.replay(engine_events(row, game))

    matches.STATES.clear()  # another process: nothing cached
    with CaptureQueriesContext(connection) as queries:
        loaded = matches.load_state(row, game)
    assert loaded == replayed
    newest = versions[-1]
    event_reads = [q["sql"] for q in queries.captured_queries if '"cacho_event"' in q["sql"]]
    assert len(event_reads) == 1 and f'"version" > {newest}' in event_reads[0], event_reads


def test_a_snapshot_of_other_engine_code_or_that_does_not_decode_is_ignored() -> None:
    match = matches.create_match("dudo", ["ana", "beto"], first_seat=0)
    play(match, 25, seed=5)
    DISPATCH.drain()
    row = Match.objects.get(pk=match.pk)
    game = game_for("dudo")
    replayed = game.replay(engine_events(row, game))
    assert Snapshot.objects.filter(match=match).exists()

    Snapshot.objects.filter(match=match).update(engine="0" * 64)  # made before a rules change
    matches.STATES.clear()
    assert matches.load_state(row, game) == replayed

    Snapshot.objects.filter(match=match).update(
        engine=snapshots.ENGINE, state={"dc": "bidding.state:Gone", "f": {}}
    )
    matches.STATES.clear()
    assert matches.load_state(row, game) == replayed


def test_a_version_another_process_stored_first_is_not_an_error() -> None:
    match = matches.create_match("dudo", ["ana", "beto"], first_seat=0)
    play(match, 12, seed=9)
    DISPATCH.drain()
    row = Match.objects.get(pk=match.pk)
    state = matches.load_state(row, game_for("dudo"))
    Snapshot.objects.filter(match=match).delete()
    Snapshot.objects.create(
        match=match, version=row.version, engine=snapshots.ENGINE, state=encode_state(state)
    )
    snapshots.LATEST.clear()
    snapshots.LATEST.put(match.pk, 0)  # this process has not heard of it yet
    assert snapshots.maybe_store(match.pk, row.version, state)  # the unique row wins, quietly
    assert Snapshot.objects.filter(match=match).count() == 1
    assert not snapshots.maybe_store(match.pk, row.version + 5, state)  # fewer than 10 events on


def test_a_cold_load_of_a_short_match_does_not_look_for_snapshots() -> None:
    match = matches.create_match("dudo", ["ana", "beto"], first_seat=0)
    play(match, 5, seed=2)
    row = Match.objects.get(pk=match.pk)
    assert row.version < 10
    matches.STATES.clear()
    with CaptureQueriesContext(connection) as queries:
        matches.load_state(row, game_for("dudo"))
    assert not [q for q in queries.captured_queries if "cacho_snapshot" in q["sql"]]
