"""The event table: append-only in the database itself, hash-chained, globally ordered."""

from __future__ import annotations

import random
import threading
import time

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection, connections, transaction

from cacho.database import log_order
from cacho.database.log_order import LogPosition
from cacho.eventlog.store import read_all_after
from cacho.models import Event
from cacho.services import matches
from cacho.services.verify import verify_match
from tests.cacho.helpers import legal_bidding_move, play, state_of


def played_match(moves: int = 12, seed: int = 1) -> object:
    match = matches.create_match("dudo", ["ana", "beto", "caro"], first_seat=0)
    rng = random.Random(seed)
    for _ in range(moves):
        state = state_of(match)
        if state.phase == "over":
            break
        player, command = legal_bidding_move(state, rng)
        play(match, player, **command)
    return match


@pytest.mark.usefixtures("committed_db")
@pytest.mark.sqlite_too  # the triggers are each database's own (cacho.database.append_only)
def test_the_database_refuses_update_and_delete_of_events() -> None:
    match = played_match(3)
    for sql in (
        "UPDATE cacho_event SET type = 'forged' WHERE stream_id = %s",
        "DELETE FROM cacho_event WHERE stream_id = %s",
    ):
        with (
            pytest.raises(DatabaseError, match="append-only"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(sql, [match.pk.hex])
    assert Event.objects.filter(stream=match).exclude(type="forged").count() == match_version(match)


@pytest.mark.usefixtures("committed_db")
def test_a_match_with_events_is_never_deleted_or_re_keyed() -> None:
    """No foreign key from the events (migration 0006): a trigger keeps their match."""
    from django.db.models import ProtectedError

    from cacho.models import Match

    match = played_match(2)
    for sql in (
        "DELETE FROM cacho_match WHERE id = %s",
        "UPDATE cacho_match SET id = gen_random_uuid() WHERE id = %s",
    ):
        with (
            pytest.raises(DatabaseError, match="a stream is never deleted"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(sql, [match.pk.hex])
    with pytest.raises(ProtectedError):
        Match.objects.filter(pk=match.pk).delete()
    assert Event.objects.filter(stream=match).count() == match_version(match)
    lone = Match.objects.create(game="dudo", ruleset="dudo", options={}, options_hash="")
    with connection.cursor() as cursor:  # a match without events is an ordinary row
        cursor.execute("UPDATE cacho_match SET turn_seconds = 20 WHERE id = %s", [lone.pk.hex])
        cursor.execute("DELETE FROM cacho_match WHERE id = %s", [lone.pk.hex])
    assert not Match.objects.filter(pk=lone.pk).exists()


@pytest.mark.usefixtures("committed_db")
def test_events_are_never_appended_to_a_match_that_does_not_exist() -> None:
    import uuid

    from cacho.eventlog.rows import NewEvent
    from cacho.eventlog.store import Head, StaleStream, append
    from cacho.process.clock import now_ms

    ghost = Head(uuid.uuid4(), "dudo", 30)
    with pytest.raises(StaleStream):
        append(ghost, [NewEvent("bid_made", {}, {})], now_ms())
    assert not Event.objects.filter(stream_id=ghost.id).exists()
    assert (ghost.version, ghost.last_hash) == (0, ""), "the head is where it was"


@pytest.mark.usefixtures("committed_db")
@pytest.mark.sqlite_too  # each database has its own append (cacho.eventlog.sqlite_writes on SQLite)
def test_an_append_built_on_a_head_that_moved_on_writes_nothing() -> None:
    from cacho.eventlog.rows import NewEvent
    from cacho.eventlog.store import Head, StaleStream, append
    from cacho.models import DiceSeed, Match
    from cacho.process.clock import now_ms

    match = played_match(4)
    stale = Head.of(Match.objects.get(pk=match.pk))  # type: ignore[attr-defined]
    base = (stale.version, stale.last_hash)
    player, command = legal_bidding_move(state_of(match), random.Random(2))
    play(match, player, **command)  # the head moves on
    stored = list(Event.objects.filter(stream_id=stale.id).order_by("version").values_list("version", "hash"))
    seeds = list(DiceSeed.objects.filter(match_id=stale.id).values_list("scope", "drawn", "revealed"))
    with pytest.raises(StaleStream):
        append(stale, [NewEvent("bid_made", {"player": "ana"}, {})], now_ms())
    assert (stale.version, stale.last_hash) == base, "the head is where it was"
    assert (
        list(Event.objects.filter(stream_id=stale.id).order_by("version").values_list("version", "hash"))
        == stored
    )
    assert list(DiceSeed.objects.filter(match_id=stale.id).values_list("scope", "drawn", "revealed")) == seeds
    assert Match.objects.get(pk=stale.id).version == stored[-1][0]


@pytest.mark.usefixtures("committed_db")
@pytest.mark.sqlite_too  # each database has its own upserts (cacho.eventlog.projections)
def test_a_projection_is_only_ever_replaced_by_a_newer_version() -> None:
    from django.utils import timezone

    from cacho.engine.games import game_for
    from cacho.eventlog import projections
    from cacho.models import LiveTable, MatchSummary
    from cacho.services.dispatch import DISPATCH

    match = played_match(2)
    DISPATCH.drain()  # the write path's own projections written first
    state, game = state_of(match), game_for("dudo")
    for version in (50, 40, 60, 59):
        projections.update(match.pk, version, state, game, timezone.now())  # type: ignore[attr-defined]
    assert MatchSummary.objects.get(match=match).version == 60
    assert LiveTable.objects.get(match=match).version == 60
    assert MatchSummary.objects.get(match=match).status == "live"


def match_version(match: object) -> int:
    from cacho.models import Match

    return Match.objects.get(pk=match.pk).version  # type: ignore[attr-defined]


@pytest.mark.usefixtures("committed_db")
def test_a_fresh_match_verifies_and_its_revealed_rounds_recompute() -> None:
    match = played_match(25)
    report = verify_match(match)
    assert report["valid"], report
    assert report["verified_scopes"], "at least one round resolved and revealed its seed"
    versions = list(Event.objects.filter(stream=match).order_by("version").values_list("version", flat=True))
    assert versions == list(range(1, len(versions) + 1))


@pytest.mark.usefixtures("committed_db")
def test_tampering_with_a_stored_payload_is_caught_and_named() -> None:
    match = played_match(10)
    target = Event.objects.filter(stream=match, type="bid_made").order_by("version").first()
    assert target is not None
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE cacho_event DISABLE TRIGGER cacho_event_append_only")
        try:
            cursor.execute(
                "UPDATE cacho_event SET payload = jsonb_set(payload, '{quantity}', '9') WHERE position = %s",
                [target.position],
            )
        finally:
            cursor.execute("ALTER TABLE cacho_event ENABLE TRIGGER cacho_event_append_only")
    report = verify_match(match)
    assert not report["valid"]
    assert report["error"]["version"] == target.version
    assert report["error"]["reason"] == "hash-mismatch"
    with pytest.raises(CommandError, match=f"event {target.version} "):
        call_command("verify_match", str(match.pk))


@pytest.mark.usefixtures("committed_db")
def test_forged_dice_with_a_recomputed_hash_chain_are_caught_by_the_seed() -> None:
    """A forger who rewrites a round's dice and re-hashes the chain still fails on fairness."""
    from cacho.eventlog.chain import stored_hash

    match = played_match(25)
    started = Event.objects.filter(stream=match, type="round_started").order_by("version").first()
    assert started is not None
    dice = started.payload["dice"]
    first_hand = next(i for i, hand in enumerate(dice) if hand)
    dice[first_hand][0] = dice[first_hand][0] % 6 + 1
    events = list(Event.objects.filter(stream=match).order_by("version"))
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE cacho_event DISABLE TRIGGER cacho_event_append_only")
        try:
            previous = ""
            for event in events:
                if event.pk == started.pk:
                    event.payload = started.payload
                event.hash = stored_hash(event, previous)
                previous = event.hash
                Event.objects.filter(pk=event.pk).update(payload=event.payload, hash=event.hash)
            cursor.execute("UPDATE cacho_match SET last_hash = %s WHERE id = %s", [previous, match.pk.hex])
        finally:
            cursor.execute("ALTER TABLE cacho_event ENABLE TRIGGER cacho_event_append_only")
    report = verify_match(match)
    assert not report["valid"]
    assert report["error"] == {
        **report["error"],
        "version": started.version,
        "reason": "dice-do-not-match-seed",
    }


@pytest.mark.usefixtures("committed_db")
def test_a_tailing_reader_never_skips_a_position_under_eight_concurrent_writers() -> None:
    games = [matches.create_match("dudo", ["ana", "beto"], first_seat=0) for _ in range(8)]
    last = Event.objects.order_by("-txid", "-position").first()
    start = log_order.of(last) if last is not None else log_order.START
    stop = threading.Event()
    errors: list[BaseException] = []
    per_writer = 30
    played = [0] * len(games)  # commands applied per writer (a match may end before 30)

    def writer(match: object, seed: int) -> None:
        rng = random.Random(seed)
        try:
            for _ in range(per_writer):
                state = state_of(match)
                if state.phase == "over":
                    break
                player, command = legal_bidding_move(state, rng)
                play(match, player, **command)  # type: ignore[arg-type]
                played[seed] += 1
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)
        finally:
            connections.close_all()

    seen: list[LogPosition] = []
    last: list[LogPosition] = []  # the last stored position, once every writer is done

    def reader() -> None:
        # An empty batch is not the end: a transaction still open elsewhere (the after-commit
        # work's) holds the horizon back, which delays events, never loses them. The reader
        # stops once it has reached the last stored event (or gives up after 20 s).
        checkpoint = start
        give_up = time.monotonic() + 20
        try:
            while time.monotonic() < give_up:
                batch = read_all_after(checkpoint, limit=200)
                for event in batch:
                    seen.append(log_order.of(event))
                    checkpoint = log_order.of(event)
                if stop.is_set() and checkpoint >= last[0]:
                    break
                time.sleep(0.001)
        finally:
            connections.close_all()

    tail = threading.Thread(target=reader)
    tail.start()
    threads = [threading.Thread(target=writer, args=(m, i)) for i, m in enumerate(games)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    newest = Event.objects.order_by("-txid", "-position").first()
    last.append(log_order.of(newest) if newest is not None else start)
    stop.set()
    tail.join()
    assert not errors, errors
    stored = [log_order.of(event) for event in Event.objects.filter(position__gt=start.position)]
    assert seen == sorted(stored), "the reader saw every committed event, in order, exactly once"
    # each command appends at least one event; a 2-player match lasts at least 5 rounds of
    # 2 commands (a round costs at most one of the 10 dice), so every writer played 10 or more
    assert len(stored) >= sum(played) >= 8 * 10, played
    assert len({txid for txid, _ in stored}) > 1, "each append is its own transaction"


@pytest.mark.usefixtures("committed_db")
def test_an_event_committed_late_is_read_before_the_later_ones_that_committed_first() -> None:
    """A writer that inserted first but commits last (its position is the smaller one)
    holds back the reader: the reader never moves past it and so never skips it."""
    if connection.vendor != "postgresql":
        pytest.skip("one writer at a time on SQLite")
    slow_match = matches.create_match("dudo", ["ana", "beto"], first_seat=0)
    fast_match = matches.create_match("dudo", ["ana", "beto"], first_seat=0)
    last = Event.objects.order_by("-txid", "-position").first()
    checkpoint = log_order.of(last) if last is not None else log_order.START
    inserted, release = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def slow_writer() -> None:
        try:
            with transaction.atomic():
                state = state_of(slow_match)
                player, command = legal_bidding_move(state, random.Random(1))
                play(slow_match, player, **command)
                inserted.set()
                release.wait(10)
        except BaseException as exc:
            errors.append(exc)
            inserted.set()
        finally:
            connections.close_all()

    thread = threading.Thread(target=slow_writer)
    thread.start()
    assert inserted.wait(10)
    state = state_of(fast_match)
    player, command = legal_bidding_move(state, random.Random(2))
    fast = play(fast_match, player, **command)
    assert Event.objects.filter(stream_id=fast_match.pk, version=fast.version).exists(), "committed, visible"
    try:
        assert read_all_after(checkpoint) == [], "the horizon holds while the first writer is open"
    finally:
        release.set()
        thread.join()
    assert not errors, errors
    # Another process's transaction open at this moment (a worker's sweep) holds the
    # horizon too: the events come once it ends, none skipped.
    read = read_all_after(checkpoint)
    for _ in range(100):
        if len(read) >= 2:
            break
        time.sleep(0.05)
        read = read_all_after(checkpoint)
    streams = [event.stream_id for event in read]
    assert streams == [slow_match.pk, fast_match.pk], "the late commit comes first, nothing skipped"
    assert read[-1].version == fast.version
    assert read[0].position < read[1].position
