"""The stored ratings, a projection of the finished rated tables.

Each finished table of a rated tournament whose match had at least two seated users is a
`RatedMatch` (its input to the fold: family, order key, placements by user). The ratings
(`PlayerRating`) and their history (`RatingChange`) are always what `fold.fold` makes of
every `RatedMatch` of a family in the order (key, match id):

* `update_match(match_id)` (after the commit that finishes a table or rules on it) reads
  the table's input again; when it differs from the stored one (a new table, a ruling
  that changed it, a table reopened), every change from the earlier of the two places in
  the order onward is dropped and folded again. A table that sorts last (the usual case)
  folds just itself, from its players' stored ratings; one committed late, or corrected,
  refolds what follows it, from each player's last change before it.
* `rebuild()` reads every input again from the tables and folds from scratch.

Both run under one lock (a PostgreSQL advisory lock; on SQLite, which lets one writer in
at a time, the write transaction itself) so two workers never interleave, and both are
idempotent: an input stored already changes nothing.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from celery import shared_task
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Count, OuterRef, Q, Subquery

from cacho.database import databases
from tournaments import matches
from tournaments.models import PlayerRating, RatedMatch, RatingChange, Table, TableSeat
from tournaments.open_tables import ratings as open_tables
from tournaments.ratings.fold import Change, RatedTable, Skill, fold, placements_of

logger = logging.getLogger(__name__)

LOCK = 0x5241_5449_4E47  # "RATING": the advisory lock of every write to the ratings
BATCH = 5000

Order = tuple[int, str]


def _lock() -> None:
    # SQLite lets one writer in at a time: its write transaction is the lock already.
    if databases.postgresql():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK])


# ---------------------------------------------------------------- inputs from the tables


@dataclass(frozen=True)
class _Finished:
    """What the fold's input needs of a finished table: read as plain values, as it is read
    after every rated table."""

    pk: int
    match_id: Any
    result: list[dict[str, Any]]
    tournament_id: int
    ruleset: str


def _rated_tables() -> Any:
    """The finished tables of rated tournaments: rows of `_Finished`'s fields, in its order."""
    columns = ("pk", "match_id", "result", "round__tournament_id", "round__tournament__ruleset")
    rows = Table.objects.filter(status=Table.FINISHED, match_id__isnull=False, round__tournament__rated=True)
    return rows.values_list(*columns).order_by("pk")


def _input(
    table: _Finished, key: int | None, seated: set[Any], users: dict[int, Any], teams: dict[int, list[Any]]
) -> RatedMatch | None:
    """A finished table's input to the fold: its lines whose entry's user sat in its match
    (guests and bots are left out); a pair or team gives a line to each of its members with
    an account who played the table (`teams`: entry id -> user ids), at the team's
    placement. None with fewer than two lines."""
    if key is None:
        return None
    lines = []
    rated: set[Any] = set()
    for line in table.result:
        entry = line.get("entry")
        user_id = users.get(entry)
        players = teams.get(entry) or ([user_id] if user_id is not None and user_id in seated else [])
        for player in players:
            if player not in rated:
                rated.add(player)
                lines.append((player, int(line["placement"])))
    if len(lines) < 2:
        return None
    return RatedMatch(
        match_id=table.match_id,
        family=matches.game_of(table.ruleset),
        key=key,
        tournament_id=table.tournament_id,
        placements=[list(line) for line in placements_of(lines)],
    )


def _entry_users(tables: Sequence[_Finished]) -> dict[int, Any]:
    from tournaments.models import Entry

    ids = {line.get("entry") for table in tables for line in table.result}
    return dict(Entry.objects.filter(pk__in=ids, user__isnull=False).values_list("pk", "user_id"))


def _team_users(tables: Sequence[_Finished]) -> dict[int, dict[int, list[Any]]]:
    """Table id -> entry id -> the accounts among the members it was drawn with (those that
    still exist: a deleted account is rated no more, as an entry's is not)."""
    out: dict[int, dict[int, list[Any]]] = {}
    seats = list(
        TableSeat.objects.filter(table__in=[t.pk for t in tables])
        .exclude(members=[])
        .values_list("table_id", "entry_id", "members")
    )
    named = {m["user"] for _t, _e, members in seats for m in members if m.get("user") is not None}
    existing = set(get_user_model().objects.filter(pk__in=named).values_list("pk", flat=True))
    for table_id, entry_id, members in seats:
        accounts = [m["user"] for m in members if m.get("user") in existing]
        if accounts:
            out.setdefault(table_id, {})[entry_id] = accounts
    return out


def read_input(match_id: Any) -> RatedMatch | None:
    """What the fold should read for this match now (unsaved), or None: not a finished
    table of a rated tournament, or fewer than two rated players."""
    row = _rated_tables().filter(match_id=match_id).first()
    if row is None:
        return open_tables.read_input(match_id)  # a rated casual table, or None
    table = _Finished(*row)
    return _input(
        table,
        matches.rating_key(match_id),
        matches.seat_users(match_id),
        _entry_users([table]),
        _team_users([table]).get(table.pk, {}),
    )


def read_inputs() -> Iterable[RatedMatch]:
    """Every rated table's input, read again from the tables and their matches."""
    tables = [_Finished(*row) for row in _rated_tables()]
    for start in range(0, len(tables), BATCH):
        chunk = tables[start : start + BATCH]
        ids = [t.match_id for t in chunk]
        keys, seated, users = matches.rating_keys(ids), matches.seat_users_of(ids), _entry_users(chunk)
        teams = _team_users(chunk)
        for table in chunk:
            found = _input(
                table,
                keys.get(str(table.match_id)),
                seated.get(str(table.match_id), set()),
                users,
                teams.get(table.pk, {}),
            )
            if found is not None:
                yield found
    yield from open_tables.read_inputs()


# ---------------------------------------------------------------- the fold, stored


def _same(a: RatedMatch | None, b: RatedMatch | None) -> bool:
    if a is None or b is None:
        return a is b
    return (a.family, a.key, a.tournament_id, a.placements) == (
        b.family,
        b.key,
        b.tournament_id,
        b.placements,
    )


def _order(row: RatedMatch) -> Order:
    return (int(row.key), str(row.match_id))


def _from(order: Order | None) -> Q:
    """The rows at or after `order` (all of them for None)."""
    if order is None:
        return Q()
    key, match = order
    # `key >= K` on its own too: the index on (family, key, match_id) bounds the scan.
    return Q(key__gte=key) & (Q(key__gt=key) | Q(key=key, match_id__gte=match))


def _table(key: Any, match_id: Any, placements: Any) -> RatedTable:
    return RatedTable(int(key), str(match_id), tuple((int(u), int(p)) for u, p in placements))


def record(match_id: Any, found: RatedMatch | None, *, locked: bool = False) -> bool:
    """Store `found` as the match's input (None: it is not rated now) and refold what it
    changes; False when it was stored already. The caller's transaction, under the lock
    (taken here unless the caller holds it already: `locked`)."""
    if not locked:
        _lock()
    stored = RatedMatch.objects.filter(match_id=match_id).first()
    if _same(stored, found):
        return False
    starts = [(row.family, _order(row)) for row in (stored, found) if row is not None]
    if stored is not None:
        stored.delete()
    if found is not None:
        found.save()
    for family in {f for f, _ in starts}:
        refold(family, min(order for f, order in starts if f == family))
    return True


def refold(family: str, start: Order | None) -> int:
    """Drop every change of `family` from `start` on and fold its tables from there again,
    each player starting from their last change before `start`; the changes written."""
    later = RatingChange.objects.filter(_from(start), family=family)
    # Without the model's ordering, which DISTINCT would otherwise take in too.
    touched = set(later.order_by().values_list("user_id", flat=True).distinct())
    if touched:
        later.delete()
    rows = RatedMatch.objects.filter(_from(start), family=family).order_by("key", "match_id")
    # The tables and their tournaments in one read (it runs after every rated table).
    tables: list[RatedTable] = []
    tournaments: dict[Any, Any] = {}
    columns = ("key", "match_id", "placements", "tournament_id")
    found = rows.values_list(*columns)
    # A refold from scratch reads every rated table, in chunks (on PostgreSQL a server-side
    # cursor: three round trips). One from a table on reads the few that follow it, at once.
    read = found.iterator(chunk_size=BATCH) if start is None else found
    for key, match, placements, tournament in read:
        tables.append(_table(key, match, placements))
        tournaments[match] = tournament
    players = touched | {p for t in tables for p, _ in t.placements}
    state: dict[int, Skill]
    counts: dict[int, int]
    if start is None:
        state, counts = {}, {}
    elif touched:
        state, counts = _state_before(family, players)
    else:
        state, counts = _stored(family, players)
    changes: list[tuple[Any, ...]] = []
    written = 0
    for change in fold(tables, state):
        changes.append(_change_row(family, change, tournaments))
        counts[change.player] = counts.get(change.player, 0) + 1
        if len(changes) >= BATCH:
            written += _write_changes(changes)
            changes = []
    written += _write_changes(changes)
    _write_ratings(family, players, state, counts)
    return written


def _stored(family: str, players: set[Any]) -> tuple[dict[int, Skill], dict[int, int]]:
    """Each player's stored rating and count of changes. With no change stored from the
    refold's start on (a table that sorts last: the usual finish), these are each player's
    state before that start, as the last refold wrote them under the same lock: one plain
    read instead of `_state_before`'s look for each player's latest change."""
    rows = PlayerRating.objects.filter(family=family, user_id__in=players).order_by()
    state: dict[int, Skill] = {}
    counts: dict[int, int] = {}
    for user, mu, sigma, tables in rows.values_list("user_id", "mu", "sigma", "tables"):
        state[user], counts[user] = Skill(mu, sigma), tables
    return state, counts


def _state_before(family: str, players: set[Any]) -> tuple[dict[int, Skill], dict[int, int]]:
    """Each player's rating after their last change still stored, and how many they have."""
    # Each player's latest change, looked up once per player (the index on (user, family,
    # key) answers it), rather than by PostgreSQL's DISTINCT ON, which SQLite refuses.
    latest = (
        RatingChange.objects.filter(family=family, user_id=OuterRef("pk"))
        .order_by("-key", "-match_id")
        .values("pk")[:1]
    )
    chosen = get_user_model().objects.filter(pk__in=players).values(change=Subquery(latest))
    rows = RatingChange.objects.filter(pk__in=Subquery(chosen)).values_list("user_id", "mu", "sigma")
    state = {user: Skill(mu, sigma) for user, mu, sigma in rows}
    counted = (
        RatingChange.objects.filter(family=family, user_id__in=players)
        .values("user_id")
        .annotate(n=Count("id"))
        .values_list("user_id", "n")
    )
    return state, dict(counted)


CHANGE_COLUMNS = (
    "user_id",
    "family",
    "match_id",
    "key",
    "tournament_id",
    "placement",
    "table_size",
    "mu_before",
    "sigma_before",
    "mu",
    "sigma",
    "ordinal",
)


def _change_row(family: str, change: Change, tournaments: dict[Any, Any]) -> tuple[Any, ...]:
    match_id = uuid.UUID(change.table.match)
    return (
        change.player,
        family,
        match_id,
        change.table.key,
        tournaments.get(match_id),
        change.placement,
        len(change.table.placements),
        change.before.mu,
        change.before.sigma,
        change.after.mu,
        change.after.sigma,
        change.after.ordinal,
    )


def _write_changes(rows: list[tuple[Any, ...]]) -> int:
    """Insert rating changes: PostgreSQL's COPY (a rebuild writes hundreds of thousands;
    floats travel as their shortest exact text, so they come back equal), else the ORM."""
    if not rows:
        return 0
    if databases.postgresql():
        table = RatingChange._meta.db_table
        statement = f"COPY {table} ({', '.join(CHANGE_COLUMNS)}) FROM STDIN"
        with connection.cursor() as cursor, cursor.cursor.copy(statement) as copy:
            for row in rows:
                copy.write_row(row)
    else:
        RatingChange.objects.bulk_create(
            RatingChange(**dict(zip(CHANGE_COLUMNS, row, strict=True))) for row in rows
        )
    return len(rows)


def _write_ratings(family: str, players: set[Any], state: dict[int, Skill], counts: dict[int, int]) -> None:
    """Each player's current rating from the fold; a player left with no rated table has none."""
    PlayerRating.objects.filter(family=family, user_id__in=[p for p in players if p not in state]).delete()
    rows = [
        PlayerRating(
            user_id=p, family=family, mu=s.mu, sigma=s.sigma, ordinal=s.ordinal, tables=counts.get(p, 0)
        )
        for p, s in state.items()
        if p in players
    ]
    for start in range(0, len(rows), BATCH):
        PlayerRating.objects.bulk_create(
            rows[start : start + BATCH],
            update_conflicts=True,
            unique_fields=["user", "family"],
            update_fields=["mu", "sigma", "ordinal", "tables"],
        )


# ---------------------------------------------------------------- entry points


def update_match(match_id: Any) -> bool:
    """Bring the ratings up to date with one table (finished, corrected or reopened)."""
    with transaction.atomic():
        _lock()
        return record(match_id, read_input(match_id), locked=True)


def rebuild(*, from_tables: bool = True) -> int:
    """Every rating folded again from scratch; with `from_tables`, every input is read
    again from the tables and their matches first. The changes written."""
    with transaction.atomic():
        _lock()
        if from_tables:
            RatedMatch.objects.all().delete()
            fresh = list(read_inputs())
            for start in range(0, len(fresh), BATCH):
                RatedMatch.objects.bulk_create(fresh[start : start + BATCH])
        RatingChange.objects.all().delete()
        PlayerRating.objects.all().delete()
        families = RatedMatch.objects.values_list("family", flat=True).distinct()
        return sum(refold(family, None) for family in sorted(set(families)))


@shared_task(name="tournaments.rate_match", ignore_result=True)
def rate_match_task(match_id: str) -> bool:
    """The ratings after a table's commit. A failure is logged, never raised into the
    commit that queued it: `manage.py rebuild_ratings` catches up."""
    try:
        return update_match(match_id)
    except Exception:
        logger.exception("ratings: match %s", match_id)
        return False


def rate_after_commit(match_id: Any) -> None:
    """Queue the ratings' update for a table's match once the caller's transaction commits."""
    if match_id is not None:
        transaction.on_commit(lambda: rate_match_task.delay(str(match_id)))


__all__ = ["rate_after_commit", "rebuild", "record", "refold", "update_match"]
