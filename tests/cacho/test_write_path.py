"""The write path's shortcuts are safe: seed rows written inside the append's one statement
(a process that did not start the round still reveals the right seed, and the match
verifies), and a held timer dropped once its turn was played."""

from __future__ import annotations

import random

import pytest

from cacho.models import DiceSeed, Match
from cacho.services import deadlines, matches
from cacho.services.batch import SEED_SECRETS
from cacho.services.verify import verify_match
from tests.cacho.helpers import command_id, legal_bidding_move, state_of

pytestmark = pytest.mark.usefixtures("committed_db")  # autocommit appends, as served


def test_every_command_from_a_fresh_process_reveals_the_stored_seeds() -> None:
    match = matches.create_match("dudo", ["ana", "beto", "caro"], first_seat=0)
    rng = random.Random(11)
    reveals = 0
    for _ in range(400):
        matches.STATES.clear()  # as if each command reached another server process
        SEED_SECRETS.clear()
        state = state_of(match)
        if state.phase == "over":
            break
        player, command = legal_bidding_move(state, rng)
        result = matches.submit(match.pk, player, command, command_id())
        for event in result.events:
            reveal = event.metadata.get("reveal")
            if reveal is not None:
                stored = DiceSeed.objects.get(match=match, scope=reveal["scope"])
                assert stored.revealed and (reveal["seed"], reveal["commitment"]) == (
                    stored.seed,
                    stored.commitment,
                )
                reveals += 1
    assert reveals >= 3
    assert verify_match(Match.objects.get(pk=match.pk))["valid"]
    # Every revealed seed is marked so; only the round in play keeps its seed secret.
    hidden = DiceSeed.objects.filter(match=match, revealed=False).count()
    assert hidden == (0 if state_of(match).phase == "over" else 1)


def test_a_held_timer_is_not_sent_once_the_turn_was_played() -> None:
    match = matches.create_match("dudo", ["ana", "beto"], first_seat=0)
    at = Match.objects.get(pk=match.pk)
    assert at.deadline_ms is not None
    assert deadlines.schedule_if_current(match.pk, at.version, at.deadline_ms)
    player, command = legal_bidding_move(state_of(match), random.Random(1))
    matches.submit(match.pk, player, command, command_id())  # played, maybe on another process
    assert not deadlines.schedule_if_current(match.pk, at.version, at.deadline_ms)


def test_a_new_match_is_stored_whole_and_its_row_saves_as_an_update() -> None:
    """On PostgreSQL the match row, its seats, its first events and its first round's seed
    are one statement: the instance returned is a stored row like any other."""
    from cacho.models import Event, Seat

    match = matches.create_match("dudo", ["ana", "beto", "caro"], first_seat=1)
    stored = Match.objects.get(pk=match.pk)
    assert stored.version == match.version == Event.objects.filter(stream=match).count() == 2
    assert stored.last_hash == match.last_hash and stored.pending_scope == "round-1" and stored.turn_key
    assert stored.created_at is not None
    assert list(Seat.objects.filter(match=match).order_by("index").values_list("name", flat=True)) == [
        "ana",
        "beto",
        "caro",
    ]
    assert DiceSeed.objects.filter(match=match, scope="round-1", revealed=False).count() == 1
    match.tournament_ref = "t-1"
    match.save(update_fields=["tournament_ref"])
    assert Match.objects.filter(pk=match.pk, tournament_ref="t-1").count() == 1


def test_a_match_created_in_a_transaction_that_rolls_back_leaves_nothing() -> None:
    from django.db import transaction

    from cacho.models import Event, Seat

    with pytest.raises(RuntimeError), transaction.atomic():
        match = matches.create_match("dudo", ["ana", "beto"], first_seat=0)
        raise RuntimeError("the caller gives up")
    assert not Match.objects.filter(pk=match.pk).exists()
    assert not Seat.objects.filter(match_id=match.pk).exists()
    assert not Event.objects.filter(stream_id=match.pk).exists()
    assert not DiceSeed.objects.filter(match_id=match.pk).exists()
