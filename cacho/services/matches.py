"""The single write path of a match: every caller (API view, websocket consumer, timer
task, admin action, record import) changes a match only through this module.

`submit`: lock the match row (SELECT … FOR UPDATE) → load the state (in-process cache
validated by version, plus the tail of the stream) → `decide` → roll the dice the
engine needs (fairness seeds) → append with the expected version → after commit:
cache, projections, publish to the channel group, schedule the turn deadline.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connections, transaction
from django.db.models.base import ModelState
from django.utils import timezone

from cacho import fairness
from cacho.engine.errors import RecordFormatError, RuleError
from cacho.engine.games import DiceNeeded, Game, game_for
from cacho.hot_settings import setting
from cacho.models import DiceSeed, Event, Match, Seat
from cacho.services import presentation
from cacho.services.dispatch import DISPATCH, Queued
from cacho.services.notices import NOTICES
from cacho.store import (
    EPOCH,
    AppendedEvent,
    NewEvent,
    StaleStream,
    StoredEvent,
    append,
    canonical_json,
    read_stream,
)

logger = logging.getLogger(__name__)

SERVER = "server"
# After-commit work is held back this long (seconds) so that a newer version of the same
# match replaces it (see services.dispatch). Projections lag by at most PROJECTION_HOLD:
# they serve lists, the admin and rebuild checks (live play and standings read the log),
# and at a quarter of a second a busy table costs four upserts a second, not twenty.
# A turn's Celery timer needs to reach the broker well before its deadline, not at once:
# held TIMER_HOLD (less when the deadline is nearer), a turn played within it never costs
# a broker publish (~0.6 ms of CPU, more than the append); the sweep covers a process that
# dies meanwhile.
PROJECTION_HOLD = 0.25
TIMER_HOLD = 2.0


class VersionConflict(Exception):
    """The stream moved on: the command was made for another version."""

    def __init__(self, current_version: int) -> None:
        super().__init__(f"the match is at version {current_version}")
        self.current_version = current_version


class MatchNotFound(Exception):
    pass


@dataclass(frozen=True)
class Result:
    match_id: Any
    version: int
    events: Sequence[StoredEvent]
    repeated: bool = False


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def options_hash(options: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical_json(dict(options)).encode("utf-8")).hexdigest()


# ---------------------------------------------------------------- state cache
# Snapshots: an in-process LRU of (match id) -> (version, state), validated by the
# locked row's version; a stale entry is brought up to date with the stream's tail.


def copy_row(row: Match) -> Match:
    """A private copy of a match row, as `copy.copy` makes it (its own field cache) at a
    fraction of the cost (no pickling protocol): the write path copies a row per command."""
    clone = Match.__new__(Match)
    clone.__dict__.update(row.__dict__)
    state = clone._state = ModelState.__new__(ModelState)
    state.__dict__.update(row._state.__dict__)
    state.fields_cache = dict(row._state.fields_cache)
    return clone


class _StateCache:
    def __init__(self, size: int = 2048) -> None:
        self._items: OrderedDict[str, tuple[int, Any, Match | None]] = OrderedDict()
        self._lock = threading.Lock()
        self.size = size

    def get(self, key: str) -> tuple[int, Any] | None:
        entry = self.entry(key)
        return None if entry is None else (entry[0], entry[1])

    def entry(self, key: str) -> tuple[int, Any, Match | None] | None:
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
            return item

    def put(
        self, key: str, version: int, state: Any, row: Match | None = None, *, own_row: bool = False
    ) -> None:
        """Remember the state at `version` (and the match row as it is at that version;
        copied unless `own_row` says the caller hands over a private copy)."""
        with self._lock:
            current = self._items.get(key)
            if current is not None and current[0] > version:
                return
            if row is None and current is not None and current[0] == version:
                row = current[2]
            if row is not None and not own_row:
                row = copy_row(row)
            self._items[key] = (version, state, row)
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


STATES = _StateCache()


class _SeedSecrets:
    """The secrets of the seeds this process stored (an LRU): a round's reveal, usually
    written by the process that started the round, then needs no read. Only seeds whose
    append committed are put here: a seed never changes once stored."""

    def __init__(self, size: int = 4096) -> None:
        self._items: OrderedDict[tuple[Any, str], tuple[str, str]] = OrderedDict()
        self._lock = threading.Lock()
        self.size = size

    def get(self, key: tuple[Any, str]) -> tuple[str, str] | None:
        with self._lock:
            return self._items.get(key)

    def put(self, key: tuple[Any, str], secret: tuple[str, str]) -> None:
        with self._lock:
            self._items[key] = secret
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


SEED_SECRETS = _SeedSecrets()


def _to_engine(game: Game, event: Event) -> Any:
    return game.event_from_dict({"type": event.type, **event.payload})


def load_state(match: Match, game: Game) -> Any:
    """The state at `match.version`: the cached state and the tail of the stream, else the
    newest snapshot and the events after it, else a full replay."""
    key = str(match.pk)
    cached = STATES.get(key)
    if cached is not None and cached[0] == match.version:
        return cached[1]
    if cached is not None and cached[0] < match.version:
        state = cached[1]
        for event in read_stream(match.pk, after=cached[0]):
            state = game.evolve(state, _to_engine(game, event))
    else:
        state = _from_snapshot(match, game)
    STATES.put(key, match.version, state, match)
    return state


def _from_snapshot(match: Match, game: Game) -> Any:
    """The newest snapshot and the events after it, or the whole stream (cacho.snapshots)."""
    from cacho import snapshots

    found = snapshots.load(match.pk, match.version)
    if found is None:
        return game.replay(_to_engine(game, event) for event in read_stream(match.pk))
    state = found[1]
    for event in read_stream(match.pk, after=found[0]):
        state = game.evolve(state, _to_engine(game, event))
    return state


def engine_events(match: Match, game: Game) -> list[Any]:
    return [_to_engine(game, event) for event in read_stream(match.pk)]


# ---------------------------------------------------------------- one batch of events


class _Batch:
    """The events of one command (or one creation, or one timeout) on their way to the log:
    the state as they leave it, the seeds they draw from or reveal, and the connection."""

    __slots__ = (
        "actor",
        "at",
        "command_id",
        "db",
        "game",
        "key",
        "match",
        "new_seeds",
        "pending",
        "reveals",
        "seeds",
        "state",
    )

    def __init__(
        self,
        match: Match,
        game: Game,
        state: Any,
        at: int,
        actor: str,
        command_id: str | None,
        key: str = "",
    ) -> None:
        self.match, self.game, self.state, self.at = match, game, state, at
        self.actor, self.command_id = actor, command_id
        self.pending: list[NewEvent] = []
        self.seeds: dict[str, DiceSeed] = {}
        self.new_seeds: set[str] = set()
        self.reveals: list[tuple[str, NewEvent]] = []
        # Django's connection, looked up once: each `django.db.connection` attribute goes
        # through a context-local lookup, and a command used to make a dozen.
        self.db: Any = connections[DEFAULT_DB_ALIAS]
        self.key = key or str(match.id)  # the match id as text (cache key, stream in the hash)

    def run(self, step: Any, actor: str | None = None) -> None:
        """Apply a command (or a DiceNeeded, rolled here) and append its events to the batch."""
        dice_meta: dict[str, Any] | None = None
        if isinstance(step, DiceNeeded):
            step, dice_meta = self._roll(step)
        events = self.game.decide(self.state, step)
        self.add(events, actor or self.actor, dice_meta)

    def add(
        self,
        events: Sequence[Any],
        actor: str,
        dice_meta: dict[str, Any] | None = None,
        *,
        opening: bool = False,
    ) -> None:
        """Evolve the state by `events` (not the opening event, which made the state) and queue them."""
        batch: list[NewEvent] = []
        for event in events:
            if not opening:
                self.state = self.game.evolve(self.state, event)
            payload = self.game.event_to_dict(event)
            kind = payload.pop("type")
            metadata: dict[str, Any] = {"actor": actor, "at": self.at}
            if self.command_id is not None:
                metadata["causation"] = self.command_id
            if dice_meta is not None and self.game.event_dice(event, self.state) is not None:
                metadata["dice"] = dice_meta
            first = not self.pending and not batch
            batch.append(
                NewEvent(kind, payload, metadata, self.command_id if first and actor != SERVER else None)
            )
        if batch:
            self._reveal(batch[-1])
        self.pending += batch

    def settle(self) -> None:
        """Roll and start whatever the engine waits for (a bidding round's dice)."""
        while (need := self.game.dice_needed(self.state, self.at)) is not None:
            self.run(need, SERVER)

    def _roll(self, need: DiceNeeded) -> tuple[Any, dict[str, Any]]:
        """Dice from the scope's seed: a new one (drawn here, inserted at commit, already
        counting these dice), or the next dice of the committed one (its count is
        advanced at commit)."""
        scope = need.scope or self.game.dice_scope(self.state)
        if scope is None:
            raise RuleError("no-turn-in-progress", "nobody is on turn")
        seed = self.seeds.get(scope)
        if seed is None and self.match.pending_scope == scope:
            # Read outside any lock: if the stream moves meanwhile, the append fails on its
            # version and this count is never written.
            seed = DiceSeed.objects.get(match=self.match, scope=scope)
        if seed is None:
            value = fairness.new_seed()
            seed = DiceSeed(
                match_id=self.match.id, scope=scope, seed=value, commitment=fairness.commitment(value)
            )
            self.new_seeds.add(scope)
            self.match.pending_scope = scope
        offset = seed.drawn
        seed.drawn += need.count
        self.seeds[scope] = seed
        dice = fairness.roll(seed.seed, need.count, offset)
        meta = {"scope": scope, "commitment": seed.commitment, "offset": offset, "count": need.count}
        return need.build(dice), meta

    def _reveal(self, last: NewEvent) -> None:
        """The round's seed is revealed in the metadata of the event that closes its scope
        (filled in at commit when the seed is not in hand)."""
        scope = self.match.pending_scope
        if not scope or scope == self.game.dice_scope(self.state):
            return
        self.reveals.append((scope, last))
        self.match.pending_scope = ""

    def _fill_reveals(self) -> tuple[set[str], list[str]]:
        """Put each revealed seed in the metadata of the event that closes its scope (it is
        hashed with it): in hand, kept by this process, or read. Returns the revealed
        scopes and those whose seed row this batch does not otherwise write."""
        revealed = {scope for scope, _ in self.reveals}
        missing = [scope for scope in revealed if scope not in self.seeds]
        known = {scope: SEED_SECRETS.get((self.match.id, scope)) for scope in missing}
        unknown = [scope for scope, secret in known.items() if secret is None]
        if unknown:
            rows = DiceSeed.objects.filter(match=self.match, scope__in=unknown)
            for scope, secret, commitment in rows.values_list("scope", "seed", "commitment"):
                known[scope] = (secret, commitment)
        for scope, event in self.reveals:
            seed = self.seeds.get(scope)
            pair = (seed.seed, seed.commitment) if seed is not None else known[scope]
            assert pair is not None, f"no seed {scope} for match {self.key}"
            event.metadata["reveal"] = {"scope": scope, "seed": pair[0], "commitment": pair[1]}
        return revealed, missing

    def _write_seeds(self) -> None:
        """SQLite: the seed rows this batch created, drew from or revealed, inside the
        append's transaction."""
        revealed, missing = self._fill_reveals()
        for scope, seed in self.seeds.items():
            if scope in self.new_seeds:
                seed.revealed = scope in revealed
                seed.save(force_insert=True)
            else:
                DiceSeed.objects.filter(pk=seed.pk).update(drawn=seed.drawn, revealed=scope in revealed)
        DiceSeed.objects.filter(match=self.match, scope__in=missing).update(revealed=True)

    def _seed_statements(self) -> list[tuple[str, list[Any]]]:
        """PostgreSQL: the same writes as parts of the append's one statement (each runs
        only if the match row was at the expected version)."""
        if not self.seeds and not self.reveals:  # most commands: no round starts or ends
            return []
        revealed, missing = self._fill_reveals()
        match_id = self.key
        statements: list[tuple[str, list[Any]]] = []
        for scope, seed in self.seeds.items():
            if scope in self.new_seeds:
                statements.append(
                    (
                        "INSERT INTO cacho_diceseed (match_id, scope, seed, commitment, drawn, revealed) "
                        "SELECT %s::uuid, %s::text, %s::text, %s::text, %s::int, %s::bool FROM head",
                        [match_id, scope, seed.seed, seed.commitment, seed.drawn, scope in revealed],
                    )
                )
            else:
                statements.append(
                    (
                        "UPDATE cacho_diceseed SET drawn = %s::int, revealed = %s::bool "
                        "WHERE match_id = %s::uuid AND scope = %s::text AND EXISTS (SELECT 1 FROM head)",
                        [seed.drawn, scope in revealed, match_id, scope],
                    )
                )
        for scope in missing:
            statements.append(
                (
                    "UPDATE cacho_diceseed SET revealed = true "
                    "WHERE match_id = %s::uuid AND scope = %s::text AND EXISTS (SELECT 1 FROM head)",
                    [match_id, scope],
                )
            )
        return statements

    def commit(self, new_seats: Sequence[str] | None = None) -> list[AppendedEvent]:
        """Append the batch and update the match row; after-commit side effects follow the
        commit. On PostgreSQL the seed rows ride in the append's one statement, which
        outside a caller's transaction is its own (one round trip, one commit).
        `new_seats` (PostgreSQL): the match is new; its row and these seats are inserted by
        the same statement."""
        if self.db.vendor == "postgresql":
            statements = self._seed_statements()
            if new_seats is not None:
                statements.append(_seat_rows(self.key, new_seats))
            rows = self._append(statements, create=new_seats is not None)
        else:
            with transaction.atomic(savepoint=False):  # SQLite: the plain way
                self._write_seeds()
                rows = self._append()
        for scope in self.new_seeds:  # stored now: its reveal will not need to read it
            SEED_SECRETS.put((self.match.id, scope), (self.seeds[scope].seed, self.seeds[scope].commitment))
        return rows

    def _append(
        self, seed_statements: Sequence[tuple[str, list[Any]]] = (), *, create: bool = False
    ) -> list[AppendedEvent]:
        match, game, state = self.match, self.game, self.state
        key = game.turn_key(state) or ""
        if key != match.turn_key:
            deadline = game.deadline(state, self.at, match.turn_seconds)
            if self.pending and deadline is not None:
                self.pending[-1].metadata["deadline"] = deadline
        else:
            deadline = game.deadline(state, None, match.turn_seconds) or match.deadline_ms
        if self.pending:
            # Public: lets every client (and bot) know whose turn it is without a state.
            self.pending[-1].metadata["to_act"] = game.to_act(state)
        recorded_at = EPOCH + dt.timedelta(0, 0, 0, self.at)  # milliseconds, exact: the hash takes its µs
        match.turn_key = key
        match.deadline_ms = deadline if key else None
        fields = ["pending_scope", "turn_key", "deadline_ms"]
        if game.is_over(state) and match.status != Match.STATUS_FINISHED:
            match.status = Match.STATUS_FINISHED
            match.finished_at = timezone.now()
            fields += ["status", "finished_at"]
        rows = append(match, self.pending, recorded_at, fields, seed_statements, self.db, self.key, create)
        match_id, version, last_at, key, vendor = (
            match.id,
            match.version,
            recorded_at,
            self.key,
            self.db.vendor,
        )
        # The batch's row is its own (a copy of the cache's, or read under the lock): the
        # cache takes it over once committed, and nobody changes it after this.
        deadline_ms, turn_key, row = match.deadline_ms, match.turn_key, match
        wire = [presentation.wire_event(event) for event in rows]

        def committed() -> None:
            after_commit(
                match_id, version, state, game, last_at, deadline_ms, turn_key, row, wire, key, vendor
            )

        if self.db.in_atomic_block:
            self.db.on_commit(committed)
        else:  # autocommit: the append was its own transaction, committed already
            committed()
        return rows


# ---------------------------------------------------------------- after commit


def after_commit(
    match_id: Any,
    version: int,
    state: Any,
    game: Game,
    last_event_at: dt.datetime,
    deadline_ms: int | None,
    turn_key: str,
    row: Match | None = None,
    wire: list[dict[str, Any]] | None = None,
    key: str | None = None,
    vendor: str | None = None,
) -> None:
    """Side effects of a committed append. None may undo it: failures are logged.
    (`key`, `vendor`: `str(match_id)` and the database's vendor, when the caller has them.)"""
    key = str(match_id) if key is None else key
    STATES.put(key, version, state, row, own_row=True)
    queued: list[Queued] = []  # for the dispatch thread, handed over together
    if (vendor or connections[DEFAULT_DB_ALIAS].vendor) == "postgresql":
        # Off the caller's thread (its own connection); a newer version of the same match
        # queued before this one ran replaces it.
        queued.append(
            (
                lambda: _project(match_id, version, state, game, last_event_at),
                ("project", match_id),
                "projections",
                PROJECTION_HOLD,
            )
        )
    else:  # SQLite allows one writer: no second writing thread in embedded mode
        _project_logged(match_id, version, state, game, last_event_at)
    publish(match_id, version, wire, None if row is None else head_of(row), key)
    if deadline_ms is not None and turn_key:
        # If it is lost anyway (a dying process), the periodic sweep is the safety net.
        if setting("CACHO_TIMERS", "in-process") == "celery":
            # Held at most half the time left: the message is at the broker well before the
            # deadline; superseded meanwhile (the turn was played), it is dropped unsent.
            hold = max(0.0, min(TIMER_HOLD, (deadline_ms - now_ms()) / 2000))
            queued.append(
                (lambda: schedule_if_current(match_id, version, deadline_ms), ("timer", match_id), None, hold)
            )
        else:
            from cacho import tasks

            try:
                tasks.schedule_deadline(match_id, version, deadline_ms)
            except Exception:
                logger.exception("cannot schedule the deadline of match %s", match_id)
    if queued:
        DISPATCH.call_each(queued)


def schedule_if_current(match_id: Any, version: int, deadline_ms: int) -> bool:
    """The held timer, unless the turn was played meanwhile, maybe through another server
    process (whose players' moves this process never sees): one indexed read is cheaper
    than a broker publish."""
    from cacho import tasks

    if not Match.objects.filter(pk=match_id, version=version).exists():
        return False
    tasks.schedule_deadline(match_id, version, deadline_ms)
    return True


def _project(match_id: Any, version: int, state: Any, game: Game, last_event_at: dt.datetime) -> None:
    from cacho import projections, snapshots

    projections.update(match_id, version, state, game, last_event_at)
    snapshots.maybe_store(match_id, version, state)


def _project_logged(match_id: Any, version: int, state: Any, game: Game, last_event_at: dt.datetime) -> None:
    try:
        _project(match_id, version, state, game, last_event_at)
    except Exception:  # a projection is rebuilt from the log; never fail a committed write
        logger.exception("projection update failed for match %s", match_id)


def group_name(match_id: Any) -> str:
    return f"match-{match_id}"


def publish(
    match_id: Any,
    version: int,
    wire: list[dict[str, Any]] | None = None,
    head: dict[str, Any] | None = None,
    key: str | None = None,
) -> None:
    """A notice to the match's group (one Redis script call, its reply not waited for) carrying
    the new events' public wire form: a consumer that is up to date renders them for its
    viewer without reading the store; any other reads the store (the truth) instead."""
    group = group_name(match_id if key is None else key)
    message: dict[str, Any] = {"type": "match.events", "group": group, "version": version}
    if wire:
        message["events"] = wire
    if head is not None:
        message["head"] = head
    _group_send(match_id, message, group)


def publish_seats(match_id: Any) -> None:
    """Tell the match's sockets that who holds the seats changed (they cache the seats)."""
    _group_send(match_id, {"type": "match.seats", "group": group_name(match_id)})


def _group_send(match_id: Any, message: dict[str, Any], group: str | None = None) -> None:
    """At most once: clients detect version gaps and catch up from the log. On Redis in one
    round trip from this thread (cacho.services.notices); the in-memory layer lives on
    the server's loop, which async_to_sync finds."""
    layer = get_channel_layer()
    if layer is None:
        return
    group = group_name(match_id) if group is None else group
    if setting("CACHO_CHANNEL_LAYER", "in-memory") == "redis":
        NOTICES.send(layer, group, message)
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:
        logger.warning("cannot send %s to match %s", message["type"], match_id, exc_info=True)


# ---------------------------------------------------------------- following other processes

# The match row's fields that change with its events: a notice carries them so that every
# process can bring its cache of the match to the new version without reading the store.
HEAD_FIELDS = ("status", "last_hash", "pending_scope", "turn_key", "deadline_ms")


def head_of(row: Match) -> dict[str, Any]:
    return {name: getattr(row, name) for name in HEAD_FIELDS}


def follow_notice(match_id: Any, message: Mapping[str, Any]) -> bool:
    """Bring this process's cached state and row of a match to a notice's version with the
    events and head it carries (written by another process, or by this one). Only when
    the cache is exactly at the version before the notice's events: anything else (a lost
    or merged-over-a-gap notice, one overtaken by a later one) is ignored, and the next
    load reads the store. True when the cache moved. The write path trusts this entry as
    it trusts its own (the append checks the version; the head is the writer's row)."""
    key = str(match_id)
    entry = STATES.entry(key)
    events = message.get("events") or []
    head = message.get("head")
    if entry is None or entry[2] is None or not events or head is None:
        return False
    version, state, row = entry
    if events[0]["v"] != version + 1 or events[-1]["v"] != message.get("version"):
        return False
    game = game_for(row.ruleset)
    for item in events:
        state = game.evolve(state, game.event_from_dict({"type": item["t"], **item["payload"]}))
    moved = copy_row(row)
    moved.version = events[-1]["v"]
    for name in HEAD_FIELDS:
        setattr(moved, name, head[name])
    STATES.put(key, moved.version, state, moved, own_row=True)
    return True


# ---------------------------------------------------------------- commands


def _locked(match_id: Any) -> Match:
    try:
        return Match.objects.select_for_update().get(pk=match_id)
    except (Match.DoesNotExist, ValueError) as exc:
        raise MatchNotFound(str(match_id)) from exc


def first_result(match_id: Any, command_id: str) -> Result | None:
    """The events a command id caused the first time, or None."""
    first = Event.objects.filter(stream_id=match_id, command_id=command_id).first()
    if first is None:
        return None
    events = list(
        Event.objects.filter(
            stream_id=match_id, version__gte=first.version, metadata__causation=command_id
        ).order_by("version")
    )
    return Result(match_id, events[-1].version, events, repeated=True)


def current_version(match_id: Any) -> int:
    return Match.objects.filter(pk=match_id).values_list("version", flat=True).first() or 0


def submit(
    match_id: Any,
    seat: str,
    payload: Mapping[str, Any],
    command_id: str,
    expected_version: int | None = None,
    actor: str | None = None,
) -> Result:
    """Apply one player command. Raises RuleError (illegal), VersionConflict, MatchNotFound.

    A command id seen before returns the first result and writes nothing."""
    at = now_ms()
    try:
        fast = _submit_optimistic(match_id, seat, payload, command_id, expected_version, actor, at)
        if fast is not None:
            return fast
        with transaction.atomic():
            match = _locked(match_id)
            if expected_version is not None and expected_version != match.version:
                raise VersionConflict(match.version)
            game = game_for(match.ruleset)
            batch = _Batch(match, game, load_state(match, game), at, actor or f"seat:{seat}", command_id)
            batch.run(game.parse_command(seat, payload, at))
            batch.settle()
            rows = batch.commit()
    except (VersionConflict, RuleError, IntegrityError, StaleStream) as exc:
        previous = first_result(match_id, command_id) if command_id else None
        if previous is not None:
            return previous
        if isinstance(exc, IntegrityError | StaleStream):
            raise VersionConflict(current_version(match_id)) from exc
        raise
    return Result(match_id, rows[-1].version, rows)


def _submit_optimistic(
    match_id: Any,
    seat: str,
    payload: Mapping[str, Any],
    command_id: str,
    expected_version: int | None,
    actor: str | None,
    at: int,
) -> Result | None:
    """The fast path: decide on the cached state and row, append only if the stream is
    still at that version (a conditional UPDATE, no SELECT … FOR UPDATE). None when there
    is no usable cache entry or the stream moved on: the caller takes the locked path,
    which tells a real conflict from a stale cache."""
    key = str(match_id)  # the cache's keys are the ids' canonical text, as the batch's
    entry = STATES.entry(key)
    if entry is None or entry[2] is None:
        return None
    version, state, row = entry
    if expected_version is not None and expected_version != version:
        return None
    if row is None or row.status != Match.STATUS_LIVE:
        return None
    match = copy_row(row)
    game = game_for(match.ruleset)
    try:
        batch = _Batch(match, game, state, at, actor or f"seat:{seat}", command_id, key=key)
        batch.run(game.parse_command(seat, payload, at))
        batch.settle()
        rows = batch.commit()
    except (StaleStream, RuleError, IntegrityError):
        return None  # a stale cache may judge wrongly: the locked path decides for real
    return Result(match_id, rows[-1].version, rows)


def pending_deadline(match_id: Any, version: int) -> int | None:
    """The deadline of the turn still waiting at `version`, if it is in the future."""
    row = (
        Match.objects.filter(pk=match_id, version=version, status=Match.STATUS_LIVE)
        .exclude(turn_key="")
        .values_list("deadline_ms", flat=True)
        .first()
    )
    return row if row is not None and row > now_ms() else None


def expire_turn(match_id: Any, version: int) -> Result | None:
    """The turn timer: plays for the player on turn if the match is still at `version`
    and the deadline has passed. Idempotent: a late or repeated call does nothing."""
    at = now_ms()
    with transaction.atomic():
        try:
            match = _locked(match_id)
        except MatchNotFound:
            return None
        if match.version != version or not match.turn_key or match.status != Match.STATUS_LIVE:
            return None
        if match.deadline_ms is None or at < match.deadline_ms:
            return None
        game = game_for(match.ruleset)
        batch = _Batch(match, game, load_state(match, game), at, SERVER, None)
        turn_key = match.turn_key
        try:
            while (step := game.timeout_step(batch.state, turn_key, at)) is not None:
                batch.run(step)
        except RuleError:
            logger.warning("timeout refused for match %s at version %s", match_id, version, exc_info=True)
            return None
        if not batch.pending:
            return None
        batch.settle()
        rows = batch.commit()
    return Result(match_id, rows[-1].version, rows)


# ---------------------------------------------------------------- creating and importing


def create_match(
    ruleset: str,
    seats: Sequence[str],
    *,
    options: Mapping[str, Any] | None = None,
    turn_seconds: int = 30,
    created_by: Any = None,
    first_seat: int | None = None,
    tournament_ref: str = "",
) -> Match:
    """A new live match: its first events, and the first round's dice where the game needs them."""
    game = game_for(ruleset)
    options = dict(options or {})
    if first_seat is None:
        first_seat = fairness.draw_index(len(seats)) if seats else 0
    first_events = game.start(ruleset, options, list(seats), first_seat, turn_seconds)
    fields = {"turn_seconds": turn_seconds, "created_by": created_by, "tournament_ref": tournament_ref}
    return _store_new_match(game, ruleset, options, list(seats), first_events, SERVER, fields, settle=True)


def _store_new_match(
    game: Game,
    ruleset: str,
    options: Mapping[str, Any],
    seats: Sequence[str],
    events: Sequence[Any],
    actor: str,
    fields: Mapping[str, Any],
    *,
    settle: bool,
) -> Match:
    """The match row, its seats and its first events (and its first round's seed): on
    PostgreSQL one statement, elsewhere one transaction."""
    at = now_ms()
    match = Match(
        game=game.name, ruleset=ruleset, options=options, options_hash=options_hash(options), **fields
    )
    batch = _Batch(match, game, game.initial_state(events[0]), at, actor, None)
    batch.add(events[:1], actor, opening=True)
    batch.add(events[1:], actor)
    if settle:
        batch.settle()
    if batch.db.vendor == "postgresql":
        batch.commit(new_seats=seats)
    else:
        with transaction.atomic():
            match.save(force_insert=True)  # at version 0: the append below moves its head
            Seat.objects.bulk_create(Seat(match=match, index=i, name=name) for i, name in enumerate(seats))
            batch.commit()
    return copy_row(match)  # the state cache keeps the batch's row


def _seat_rows(match_id: str, names: Sequence[str]) -> tuple[str, list[Any]]:
    """A new match's seats, as a part of the statement that inserts the match (`head`)."""
    values = ", ".join(["(%s::uuid, %s::int, %s::text)"] * len(names))
    params: list[Any] = []
    for index, name in enumerate(names):
        params += [match_id, index, name]
    return (
        'INSERT INTO cacho_seat (match_id, "index", name) '
        f"SELECT seat.* FROM head, (VALUES {values}) AS seat",
        params,
    )


def import_record(record: Any, created_by: Any = None, actor: str = "import") -> Match:
    """A physical table's record: checked by the engine before anything is stored.

    Raises RecordFormatError (not a record) or RuleError (a record that breaks a rule)."""
    if not isinstance(record, dict):
        raise RecordFormatError("not-an-object", "a record is a JSON object")
    ruleset = record.get("ruleset")
    if not isinstance(ruleset, str):
        raise RecordFormatError("missing-ruleset", "ruleset must be a string")
    try:
        game = game_for(ruleset)
    except RuleError as exc:
        raise RecordFormatError(exc.code, exc.message) from exc
    from cacho.engine.record import replay_record

    outcome = replay_record(record)
    if not outcome.get("valid"):
        error = outcome["error"]
        where = {key: value for key, value in error.items() if key not in ("code", "message")}
        raise RuleError(error["code"], f"{error['message']} (at {canonical_json(where)})")
    events = game.record_events(record)
    state = game.replay(events)
    seats = _seat_names(game, state)
    options = record.get("options", {})
    fields = {"imported": True, "created_by": created_by}
    return _store_new_match(game, ruleset, options, seats, events, actor, fields, settle=False)


def _seat_names(game: Game, state: Any) -> list[str]:
    if game.name == "alalay":
        return [entry.name for entry in state.entries]
    return list(state.config.players)


def take_seat(match_id: Any, index: int, user: Any) -> Seat:
    """Bind a user to a free seat (one seat per user and match)."""
    with transaction.atomic():
        _locked(match_id)
        seat = Seat.objects.select_for_update().filter(match_id=match_id, index=index).first()
        if seat is None:
            raise LookupError("no-such-seat")
        if seat.user_id is not None and seat.user_id != user.pk:
            raise PermissionError("seat-taken")
        if Seat.objects.filter(match_id=match_id, user=user).exclude(pk=seat.pk).exists():
            raise PermissionError("already-seated")
        seat.user = user
        seat.save(update_fields=["user"])
        transaction.on_commit(lambda: publish_seats(match_id))
    return seat
