"""Ratings are a projection: whatever order the rated tables commit in, and whatever
rulings change or reopen them afterwards, the incremental ratings equal a rebuild from
scratch exactly (every float), and equal the pure fold over the final inputs in order.
A ruling leaves every change before its table as it was."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.models import PlayerRating, RatedMatch, RatingChange
from tournaments.ratings.fold import RatedTable, Skill, fold, placements_of
from tournaments.ratings.projection import rebuild, record

pytestmark = pytest.mark.django_db

PLAYERS = 8
FAMILIES = ("dudo", "alalay")


@st.composite
def table(draw: Any) -> tuple[str, list[tuple[int, int]]]:
    size = draw(st.integers(2, 6))
    seats = draw(st.permutations(range(PLAYERS)))[:size]
    places = draw(st.lists(st.integers(1, size), min_size=size, max_size=size))  # ties too
    return draw(st.sampled_from(FAMILIES)), list(zip(seats, places, strict=True))


@st.composite
def history(draw: Any) -> tuple[list[Any], list[Any]]:
    """Tables (in the order of their keys) and the operations that reach the ratings: each
    table's finish in a random commit order, rulings (new placements, or a reopen: None)
    on tables already finished, and the re-finish of a reopened one."""
    tables = draw(st.lists(table(), min_size=1, max_size=10))
    order = draw(st.permutations(range(len(tables))))
    operations: list[Any] = []
    done: list[int] = []
    for index in order:
        operations.append(("finish", index, None))
        done.append(index)
        for _ in range(draw(st.integers(0, 2))):
            ruled = draw(st.sampled_from(done))
            if draw(st.booleans()):
                operations.append(("reopen", ruled, None))
                operations.append(("finish", ruled, None))
            else:
                operations.append(("correct", ruled, draw(table())[1]))
    return tables, operations


def snapshot() -> tuple[list[Any], list[Any]]:
    ratings = list(
        PlayerRating.objects.order_by("family", "user_id").values_list(
            "user_id", "family", "mu", "sigma", "ordinal", "tables"
        )
    )
    changes = list(
        RatingChange.objects.order_by("family", "key", "match_id", "user_id").values_list(
            "user_id",
            "family",
            "match_id",
            "key",
            "placement",
            "table_size",
            "mu_before",
            "sigma_before",
            "mu",
            "sigma",
            "ordinal",
        )
    )
    return ratings, changes


def stored(
    match: uuid.UUID, family: str, key: int, lines: list[tuple[int, int]], users: list[Any]
) -> RatedMatch:
    placements = placements_of([(users[seat].pk, place) for seat, place in lines])
    return RatedMatch(match_id=match, family=family, key=key, placements=[list(p) for p in placements])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(history())
def test_incremental_ratings_equal_a_rebuild(case: tuple[list[Any], list[Any]]) -> None:
    tables, operations = case
    RatedMatch.objects.all().delete()
    RatingChange.objects.all().delete()
    PlayerRating.objects.all().delete()
    model = get_user_model()
    users = [model.objects.get_or_create(username=f"rated-{i}")[0] for i in range(PLAYERS)]
    ids = [uuid.UUID(int=1000 + i) for i in range(len(tables))]
    current = {i: lines for i, (_, lines) in enumerate(tables)}
    live: set[int] = set()
    for kind, index, lines in operations:
        family = tables[index][0]
        key = 10 * (index + 1)
        before = snapshot()[1]
        with transaction.atomic():
            if kind == "finish":
                live.add(index)
                record(ids[index], stored(ids[index], family, key, current[index], users))
            elif kind == "reopen":
                live.discard(index)
                record(ids[index], None)
            else:
                current[index] = lines
                record(ids[index], stored(ids[index], family, key, lines, users))
        if kind != "finish":  # a ruling leaves every change before its table as it was
            earlier = [row for row in before if row[3] < key]
            assert [row for row in snapshot()[1] if row[3] < key] == earlier
        # Idempotent: the same input again changes nothing.
        again = stored(ids[index], family, key, current[index], users) if index in live else None
        assert record(ids[index], again) is False

    incremental = snapshot()
    rebuild(from_tables=False)
    assert snapshot() == incremental

    # ... and both are the pure fold over the final inputs, in order.
    for family in FAMILIES:
        state: dict[int, Skill] = {}
        inputs = [
            RatedTable(10 * (i + 1), str(ids[i]), placements_of([(users[s].pk, p) for s, p in current[i]]))
            for i in sorted(live)
            if tables[i][0] == family
        ]
        list(fold(inputs, state))
        got = {u: (mu, sigma) for u, f, mu, sigma, _, _ in incremental[0] if f == family}
        assert got == {u: (s.mu, s.sigma) for u, s in state.items()}
