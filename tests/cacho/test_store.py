"""The event table: append-only in the database itself, hash-chained, globally ordered."""

from __future__ import annotations

import random
import threading
import time

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection, connections, transaction

from cacho.models import Event
from cacho.services import matches
from cacho.services.verify import verify_match
from cacho.store import read_all_after
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


@pytest.mark.django_db(transaction=True)
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


def match_version(match: object) -> int:
    from cacho.models import Match

    return Match.objects.get(pk=match.pk).version  # type: ignore[attr-defined]


@pytest.mark.django_db(transaction=True)
def test_a_fresh_match_verifies_and_its_revealed_rounds_recompute() -> None:
    match = played_match(25)
    report = verify_match(match)
    assert report["valid"], report
    assert report["verified_scopes"], "at least one round resolved and revealed its seed"
    versions = list(Event.objects.filter(stream=match).order_by("version").values_list("version", flat=True))
    assert versions == list(range(1, len(versions) + 1))


@pytest.mark.django_db(transaction=True)
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


@pytest.mark.django_db(transaction=True)
def test_forged_dice_with_a_recomputed_hash_chain_are_caught_by_the_seed() -> None:
    """A forger who rewrites a round's dice and re-hashes the chain still fails on fairness."""
    from cacho.store import stored_hash

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


@pytest.mark.django_db(transaction=True)
def test_a_tailing_reader_never_skips_a_position_under_eight_concurrent_writers() -> None:
    games = [matches.create_match("dudo", ["ana", "beto"], first_seat=0) for _ in range(8)]
    start_position = Event.objects.order_by("-position").values_list("position", flat=True).first() or 0
    stop = threading.Event()
    errors: list[BaseException] = []
    per_writer = 30

    def writer(match: object, seed: int) -> None:
        rng = random.Random(seed)
        try:
            for _ in range(per_writer):
                state = state_of(match)
                if state.phase == "over":
                    break
                player, command = legal_bidding_move(state, rng)
                play(match, player, **command)  # type: ignore[arg-type]
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)
        finally:
            connections.close_all()

    seen: list[int] = []

    def reader() -> None:
        position = start_position
        try:
            while True:
                done = stop.is_set()
                batch = read_all_after(position, limit=200)
                for event in batch:
                    seen.append(event.position)
                    position = event.position
                if done and not batch:
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
    stop.set()
    tail.join()
    assert not errors, errors
    stored = list(
        Event.objects.filter(position__gt=start_position)
        .order_by("position")
        .values_list("position", flat=True)
    )
    assert seen == stored, "the reader saw every committed event, in order, exactly once"
    assert len(stored) >= 8 * per_writer
