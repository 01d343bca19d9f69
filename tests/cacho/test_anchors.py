"""A match's events changed or cut on a copy of the database, with the chain computed again
so that it holds together, are found by `verify` and the restore check: the heads anchored
outside the match (signed digests, cacho.anchors) disagree with them."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connection

from cacho.anchors.models import HeadDigest
from cacho.anchors.service import anchor_heads
from cacho.database.append_only import installer
from cacho.eventlog.chain import stored_hash
from cacho.models import Event, Match
from cacho.services import matches
from cacho.services.verify import verify_match
from tests.cacho.helpers import bot_move, command_id, state_of

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite_too]


def played(moves: int = 8) -> Match:
    match = matches.create_match("dudo", ["ana", "beto", "cora"], first_seat=0)
    rng = random.Random(7)
    for _ in range(moves):
        seat, payload = bot_move(state_of(match), rng)
        matches.submit(match.pk, seat, payload, command_id())
    return Match.objects.get(pk=match.pk)


class _Editor:
    """What the append-only installer uses of a schema editor, on the test's connection
    (SQLite refuses its schema editor inside the test's transaction)."""

    connection = connection

    def execute(self, sql: str) -> None:
        with connection.cursor() as cursor:
            cursor.execute(sql)


@pytest.fixture
def unguarded() -> Iterator[None]:
    """The append-only guard lifted, as the database's owner can on a copy."""
    install, remove = installer("cacho_event")
    remove(None, _Editor())
    yield
    install(None, _Editor())


def rechain(match: Match) -> None:
    """The forger's last step: every hash computed again, the head moved to the new end."""
    previous = ""
    for event in Event.objects.filter(stream=match).order_by("version"):
        previous = stored_hash(event, previous)
        Event.objects.filter(pk=event.pk).update(hash=previous)
    version = Event.objects.filter(stream=match).count()
    Match.objects.filter(pk=match.pk).update(version=version, last_hash=previous)


def forge_actor(match: Match) -> None:
    event = Event.objects.filter(stream=match, version__gt=1).order_by("version").first()
    assert event is not None
    Event.objects.filter(pk=event.pk).update(metadata={**event.metadata, "actor": "referee:forged"})


def forge_quantity(match: Match) -> None:
    event = Event.objects.filter(stream=match, type="bid_made").order_by("version").first()
    assert event is not None
    Event.objects.filter(pk=event.pk).update(
        payload={**event.payload, "quantity": event.payload["quantity"] + 1}
    )


def drop_last(match: Match) -> None:
    Event.objects.filter(stream=match, version=match.version).delete()


@pytest.mark.parametrize(
    "forge", [forge_actor, forge_quantity, drop_last], ids=["actor", "bid-quantity", "last-event"]
)
def test_a_forged_or_cut_log_with_its_chain_recomputed_is_found(
    forge: Callable[[Match], None], unguarded: None
) -> None:
    match = played()
    assert verify_match(match)["valid"]
    made = anchor_heads()
    assert made is not None and made.heads[str(match.pk)] == [match.version, match.last_hash]
    forge(match)
    rechain(match)
    report = verify_match(match)
    assert not report["valid"], report
    assert report["error"]["reason"] in ("anchor-mismatch", "anchored-event-missing"), report["error"]

    from tournaments.services import restore

    problems = [str(p) for p in restore.check().problems]
    assert any(f"match {match.pk}: match-chain-broken" in p and "anchor" in p for p in problems), problems


def test_a_digest_names_only_the_heads_that_moved_and_is_signed(settings: Any) -> None:
    first, second = played(4), played(4)
    made = anchor_heads()
    assert made is not None and set(made.heads) == {str(first.pk), str(second.pk)}
    assert anchor_heads() is None  # nothing moved
    rng = random.Random(3)
    seat, payload = bot_move(state_of(first), rng)
    matches.submit(first.pk, seat, payload, command_id())
    again = anchor_heads()
    assert again is not None and set(again.heads) == {str(first.pk)}
    assert verify_match(Match.objects.get(pk=first.pk))["valid"]
    # A digest signed with another key (written by whoever does not hold the key) is refused.
    settings.CACHO_ANCHOR_KEY = "another key"
    report = verify_match(Match.objects.get(pk=first.pk))
    assert report["error"]["reason"] == "anchor-not-signed"
    assert HeadDigest.objects.count() == 2
