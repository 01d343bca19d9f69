"""The match service: the one write path. Every caller (API view, websocket consumer,
timer task, admin action, record import, the tournaments app) changes a match only
through these commands: `submit`, `rule` (a referee's ruling), `enter` (a physical
table's scorekeeper), `expire_turn`, `create_match`, `import_record`, `take_seat`;
`check_entry` judges an entry without storing it.

`submit`: decide on the process's cached state and append only if the stream is still at
that version (one statement); else lock the match row, load the state (cache + the
stream's tail, a snapshot, or a replay), decide, append. The batch rolls the dice the
engine asks for (services.batch); after the commit come the cache, projections, the
notice, the turn's timer and the finished-match listeners (services.after_commit).

Also the public face of the match state (`load_state`, `STATES`: services.state_cache),
which callers outside the service read it through.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F, Q

from cacho.engine.errors import RuleError
from cacho.engine.games import game_for
from cacho.engine.rulings import RESULT_KINDS
from cacho.engine.undo import Undo
from cacho.eventlog import store
from cacho.eventlog.chain import digest
from cacho.eventlog.rows import StoredEvent
from cacho.eventlog.store import Head, StaleStream
from cacho.models import Match, Seat, SeatPartner
from cacho.observability import metrics
from cacho.process.clock import now_ms
from cacho.services import players
from cacho.services.batch import SERVER, Batch
from cacho.services.creation import create_match, import_record
from cacho.services.notices import publish_seats
from cacho.services.state_cache import STATES, load_state

__all__ = [
    "STATES",
    "CommandIdReused",
    "MatchNotFound",
    "Result",
    "VersionConflict",
    "check_entry",
    "create_match",
    "enter",
    "expire_turn",
    "import_record",
    "load_state",
    "rule",
    "submit",
    "take_seat",
    "take_seats",
]

logger = logging.getLogger(__name__)


class VersionConflict(Exception):
    """The stream moved on: the command was made for another version."""

    def __init__(self, current_version: int) -> None:
        super().__init__(f"the match is at version {current_version}")
        self.current_version = current_version


class CommandIdReused(VersionConflict):
    """A command id this match has seen from another seat, or with another payload: a
    conflict (HTTP 409 `command-id-reused`), never the other command's result."""


class MatchNotFound(Exception):
    pass


@dataclass(frozen=True)
class Result:
    match_id: Any
    version: int
    events: Sequence[StoredEvent]
    repeated: bool = False


def submit(
    match_id: Any,
    seat: str,
    payload: Mapping[str, Any],
    command_id: str,
    expected_version: int | None = None,
    actor: str | None = None,
) -> Result:
    """Apply one player command. Raises RuleError (illegal), VersionConflict, MatchNotFound.

    A command id is the seat's: the same seat repeating the same command gets the first
    result and writes nothing; the id reused by another seat or with another payload is a
    `CommandIdReused`. Both are looked for only when something failed (conflict, rule error,
    or the unique index on the stream's command ids): nothing on the normal path."""
    return _measured(
        metrics.PLAYER, lambda: _submit(match_id, seat, payload, command_id, expected_version, actor)
    )


def _measured(kind: str, apply: Callable[[], Result]) -> Result:
    """Apply a command, counting it in the metrics by kind and outcome."""
    started = time.perf_counter()
    try:
        result = apply()
    except Exception as exc:
        metrics.command(kind, _outcome(exc), started)
        raise
    metrics.command(kind, metrics.REPEATED if result.repeated else metrics.OK, started)
    return result


def _submit(
    match_id: Any,
    seat: str,
    payload: Mapping[str, Any],
    command_id: str,
    expected_version: int | None,
    actor: str | None,
) -> Result:
    at = now_ms()
    actor = actor or f"seat:{seat}"
    key = command_key(seat, payload)
    try:
        fast = _submit_optimistic(match_id, seat, payload, command_id, expected_version, actor, at, key)
        if fast is not None:
            return fast
        with transaction.atomic():
            head = _locked(match_id)
            if expected_version is not None and expected_version != head.version:
                raise VersionConflict(head.version)
            game = game_for(head.ruleset)
            state = load_state(head, game)
            if game.is_physical(state) and payload.get("type") != "abandon":
                # the players at a physical table send nothing; a withdrawal still leaves it
                raise RuleError("physical-table", "the scorekeeper enters this table's moves")
            batch = Batch(head, game, state, at, actor, command_id)
            batch.command_key = key
            batch.run(game.parse_command(seat, payload, at))
            batch.settle()
            rows = batch.commit()
    except (VersionConflict, RuleError, IntegrityError, StaleStream) as exc:
        previous = _first_result(match_id, command_id) if command_id else None
        if previous is not None:
            if not _same_command(previous, key):
                raise CommandIdReused(store.current_version(match_id)) from exc
            return previous
        if isinstance(exc, IntegrityError | StaleStream):
            raise VersionConflict(store.current_version(match_id)) from exc
        raise
    return Result(match_id, rows[-1].version, rows)


def rule(
    match_id: Any,
    ruling: Mapping[str, Any],
    *,
    referee: str,
    reason: str,
    command_id: str,
    expected_version: int | None = None,
) -> Result:
    """Apply a referee's ruling (`{"kind": ..., ...params}`, cacho.engine.rulings) through
    the batch path, as `submit` applies a player's command: the engine decides it, a
    round it voids starts again with fresh committed dice, and its events carry
    `actor = "referee:<referee>"` and `reason`. Raises RuleError (`ruling-...`: illegal,
    nothing stored), VersionConflict, MatchNotFound; a command id seen before returns the
    first result. Always on the locked path: rulings are rare, and never decided on a
    cache."""
    return _measured(
        metrics.RULING, lambda: _rule(match_id, ruling, referee, reason, command_id, expected_version)
    )


def _rule(
    match_id: Any,
    ruling: Mapping[str, Any],
    referee: str,
    reason: str,
    command_id: str,
    expected_version: int | None,
) -> Result:
    at = now_ms()
    try:
        with transaction.atomic():
            head = _locked(match_id)
            if expected_version is not None and expected_version != head.version:
                raise VersionConflict(head.version)
            game = game_for(head.ruleset)
            state = load_state(head, game)
            command = game.parse_ruling(state, ruling, at, reason)
            batch = Batch(head, game, state, at, f"referee:{referee}", command_id, {"reason": reason})
            batch.refinish = ruling.get("kind") in RESULT_KINDS
            batch.run(command)
            batch.settle()
            rows = batch.commit()
    except (VersionConflict, RuleError, IntegrityError) as exc:
        return _repeated(match_id, command_id, exc)
    return Result(match_id, rows[-1].version, rows)


def _submit_optimistic(
    match_id: Any,
    seat: str,
    payload: Mapping[str, Any],
    command_id: str,
    expected_version: int | None,
    actor: str,
    at: int,
    key: str,
) -> Result | None:
    """Decide on the cached state and head; append only if the stream is still at that
    version (a conditional update, no lock). None when there is no usable entry or the
    stream moved on: the locked path then tells a real conflict from a stale cache, and
    decides again a command the cache refused (a stale cache may judge wrongly)."""
    cached = STATES.get(str(match_id))
    if cached is None or cached.head.status != Match.STATUS_LIVE:
        return None
    if expected_version is not None and expected_version != cached.version:
        return None
    game = game_for(cached.head.ruleset)
    if game.is_physical(cached.state):
        return None  # the locked path says why
    try:
        batch = Batch(cached.head.copy(), game, cached.state, at, actor, command_id)
        batch.command_key = key
        batch.run(game.parse_command(seat, payload, at))
        batch.settle()
        rows = batch.commit()
    except (StaleStream, RuleError, IntegrityError):
        return None
    return Result(match_id, rows[-1].version, rows)


SCOREKEEPER_PREFIX = "scorekeeper:"


def enter(
    match_id: Any,
    payload: Mapping[str, Any],
    *,
    scorekeeper: str,
    command_id: str,
    expected_version: int | None = None,
) -> Result:
    """A physical table scorekeeper's entry (`Game.parse_entry`: a move with its dice, a
    bidding round's dice or outcome, or `{"type": "undo"}`), decided by the engine and
    stored through the same batch as a player's move, with `actor = "scorekeeper:<who>"`.
    Nothing is rolled and no clock starts. Only a scorekeeper's last entry can be undone
    (`undo-not-an-entry` otherwise: a referee corrects the rest). Raises RuleError
    (illegal: nothing stored), VersionConflict, MatchNotFound; a command id seen before
    returns the first result. Always on the locked path: entries are few."""
    at = now_ms()
    actor = f"{SCOREKEEPER_PREFIX}{scorekeeper}"
    try:
        with transaction.atomic():
            head = _locked(match_id)
            if expected_version is not None and expected_version != head.version:
                raise VersionConflict(head.version)
            game = game_for(head.ruleset)
            state = load_state(head, game)
            command = game.parse_entry(state, payload)
            if isinstance(command, Undo) and not last_entry_is_scorekeepers(match_id, head.version):
                raise RuleError("undo-not-an-entry", "the last event is not a scorekeeper's entry")
            batch = Batch(head, game, state, at, actor, command_id)
            batch.run(command)
            batch.settle()
            rows = batch.commit()
    except (VersionConflict, RuleError, IntegrityError) as exc:
        return _repeated(match_id, command_id, exc)
    return Result(match_id, rows[-1].version, rows)


def _repeated(match_id: Any, command_id: str, exc: Exception) -> Result:
    """After a refusal: the first result of a command id seen before (a repeat writes
    nothing), else the refusal itself, a lost race on the stream's unique index as a
    VersionConflict."""
    previous = _first_result(match_id, command_id) if command_id else None
    if previous is not None:
        return previous
    if isinstance(exc, IntegrityError):
        raise VersionConflict(store.current_version(match_id)) from exc
    raise exc


def last_entry_is_scorekeepers(match_id: Any, version: int) -> bool:
    """Whether the match's last event (at `version`) was written by a scorekeeper."""
    last = store.read_stream(match_id, after=version - 1)
    return bool(last) and str(last[-1].metadata.get("actor", "")).startswith(SCOREKEEPER_PREFIX)


def check_entry(match_id: Any, payload: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The events a scorekeeper's entry would cause now, as the engine's dicts, without
    storing anything (the screen asks as the entry is typed); RuleError when illegal."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise MatchNotFound(str(match_id))
    game = game_for(match.ruleset)
    state = load_state(match, game)
    return [game.event_to_dict(event) for event in game.decide(state, game.parse_entry(state, payload))]


def expire_turn(match_id: Any, version: int, at: int | None = None) -> Result | None:
    """The turn timer: plays for whoever is on turn if the match is still at `version` and
    its deadline has passed at `at` (now unless given). Idempotent: a late or repeated
    call does nothing."""
    started = time.perf_counter()
    at = now_ms() if at is None else at
    try:
        result = _expire_turn(match_id, version, at)
    except Exception as exc:
        metrics.command(metrics.TIMEOUT, _outcome(exc), started)
        raise
    metrics.command(metrics.TIMEOUT, metrics.STALE if result is None else metrics.OK, started)
    return result


def _expire_turn(match_id: Any, version: int, at: int) -> Result | None:
    with transaction.atomic():
        head = store.lock_head(match_id)
        if head is None or head.version != version or not head.turn_key or head.status != Match.STATUS_LIVE:
            return None
        if head.deadline_ms is None or at < head.deadline_ms:
            return None
        deadline_ms = head.deadline_ms
        game = game_for(head.ruleset)
        batch = Batch(head, game, load_state(head, game), at, SERVER)
        try:
            while (step := game.timeout_step(batch.state, head.turn_key, at)) is not None:
                batch.run(step)
        except RuleError:
            logger.warning("timeout refused for match %s at version %s", match_id, version, exc_info=True)
            return None
        if not batch.pending:
            return None
        batch.settle()
        rows = batch.commit()
    metrics.timer_fired(at - deadline_ms)
    return Result(match_id, rows[-1].version, rows)


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


def take_seats(match_id: Any, users: Mapping[int, Any]) -> list[Seat]:
    """`take_seat` for several seats of one match (`{seat index: user}`), in index order and
    under one lock: the same checks, seat by seat, with the seats taken before it counted;
    a refusal takes none of them. A tournament table seats all its players at once, and a
    round draws dozens of tables: one lock and one read of the seats rather than per seat."""
    if not users:
        return []
    with transaction.atomic():
        _locked(match_id)
        seats = {s.index: s for s in Seat.objects.select_for_update().filter(match_id=match_id)}
        held: dict[Any, set[int]] = {}  # user id -> the indexes of the seats it holds
        for s in seats.values():
            if s.user_id is not None:
                held.setdefault(s.user_id, set()).add(s.index)
        taken: list[Seat] = []
        for index in sorted(users):
            user = users[index]
            seat = seats.get(index)
            if seat is None:
                raise LookupError("no-such-seat")
            if seat.user_id is not None and seat.user_id != user.pk:
                raise PermissionError("seat-taken")
            if held.get(user.pk, set()) - {index}:
                raise PermissionError("already-seated")
            seat.user = user
            held.setdefault(user.pk, set()).add(index)
            taken.append(seat)
        Seat.objects.bulk_update(taken, ["user"])
        # The notice carries no seat (the sockets read the seats again): one says it all.
        transaction.on_commit(lambda: publish_seats(match_id))
    return taken


def add_partners(match_id: Any, partners: Mapping[int, Sequence[Any]]) -> None:
    """Teammates' accounts play seats too (`{seat index: [users]}`, a pair's or team's
    members): each sends its seat's moves and sees what the seat sees. One seat per account
    and match: an account seated or partnered already is refused (`already-seated`)."""
    rows = [(index, user) for index, users in partners.items() for user in users]
    if not rows:
        return
    with transaction.atomic():
        _locked(match_id)
        indexes = {index for index, _user in rows}
        if Seat.objects.filter(match_id=match_id, index__in=indexes).count() != len(indexes):
            raise LookupError("no-such-seat")
        ids = [user.pk for _index, user in rows]
        taken = Seat.objects.filter(match_id=match_id, user_id__in=ids).exists()
        if (
            taken
            or len(set(ids)) != len(ids)
            or SeatPartner.objects.filter(match_id=match_id, user_id__in=ids).exists()
        ):
            raise PermissionError("already-seated")
        SeatPartner.objects.bulk_create(SeatPartner(match_id=match_id, index=i, user=u) for i, u in rows)


def state_after(match: Match, result: Result, game: Any) -> Any:
    """The state after a command: this process's cache holds it when the command committed
    here and nothing since (the usual case: no read of the match row); else the match's
    state at its head, read again (`match` refreshed)."""
    cached = None if result.repeated else STATES.get(str(match.pk))
    if cached is not None and cached.version == result.version:
        return cached.state
    match.refresh_from_db()
    return load_state(match, game)


def seat_of_user(match: Match, user: Any) -> Seat | None:
    """The seat an account plays in a match: its own, or the one it partners (the first by
    index); `players.Seating.seat_of` decides it from the match's seats."""
    return players.seating(match).seat_of(user.pk)


def seats_of_user(user: Any) -> Any:
    """Every seat an account plays: its own, and those of the teams it partners."""
    partnered = Q(match__partners__user=user, match__partners__index=F("index"))
    return Seat.objects.filter(Q(user=user) | partnered).distinct()


# ---------------------------------------------------------------- helpers


def _outcome(exc: Exception) -> str:
    """A failed command's outcome label (cacho.observability.metrics)."""
    if isinstance(exc, RuleError):
        return metrics.REFUSED
    if isinstance(exc, VersionConflict):
        return metrics.CONFLICT
    if isinstance(exc, MatchNotFound):
        return metrics.NOT_FOUND
    return metrics.ERROR


def _locked(match_id: Any) -> Head:
    head = store.lock_head(match_id)
    if head is None:
        raise MatchNotFound(str(match_id))
    return head


def _first_result(match_id: Any, command_id: str) -> Result | None:
    """The events a command id caused the first time, or None."""
    events = store.caused_by(match_id, command_id)
    return Result(match_id, events[-1].version, events, repeated=True) if events else None


def command_key(seat: str, payload: Mapping[str, Any]) -> str:
    """Who sent a command and what it said, in 32 hex digits (kept in the metadata of the
    event that carries its id)."""
    return digest({"seat": seat, "command": dict(payload)})[:32]


def _same_command(previous: Result, key: str) -> bool:
    """The first result was caused by the same seat with the same payload (events stored
    before the key was kept count as the same)."""
    stored = previous.events[0].metadata.get("command")
    return stored is None or stored == key
