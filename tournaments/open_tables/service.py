"""Open tables' write path: open one, take and leave seats, fill seats with bots, start it
(by the host with two or more seated, or by itself once full), and open a rematch.

Each action locks the table's row and runs in one transaction; the seats' unique index
decides between two players taking the same seat (the loser gets 409 `seat-taken`).
The lobby and the table's page hear of every change after commit (`live.announce`). The
match is created through `tournaments.matches` (the one door to the match server); its
end reaches `match_finished` (a `CACHO_MATCH_FINISHED` listener), which closes the table
and, for a rated one, updates the ratings.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cacho.engine.errors import RuleError
from tournaments import matches
from tournaments.errors import TournamentError
from tournaments.open_tables import live
from tournaments.open_tables.models import OpenSeat, OpenTable
from tournaments.ratings.projection import rate_after_commit

MIN_SEATS, MAX_SEATS = 2, 6
MIN_TURN, MAX_TURN = 10, 600
# Tables not yet started that one player may sit at (a flood of empty tables costs the lobby).
MAX_WAITING = 5
BOT_NAME = "Bot {n}"


def _conflict(code: str, message: str) -> TournamentError:
    return TournamentError(code, message, status=409)


def _locked(table_id: Any) -> OpenTable:
    try:
        key = int(table_id)
    except (TypeError, ValueError):
        key = 0
    table = OpenTable.objects.select_for_update().filter(pk=key).first()
    if table is None:
        raise TournamentError("table-unknown", _("There is no such table."), status=404)
    return table


def _waiting_for(user: Any) -> int:
    return OpenSeat.objects.filter(user=user, table__status=OpenTable.OPEN).count()


def _check_waiting(user: Any) -> None:
    if _waiting_for(user) >= MAX_WAITING:
        raise _conflict(
            "too-many-tables", _("You sit at %(n)d tables waiting to start already.") % {"n": MAX_WAITING}
        )


def _after_commit(table: OpenTable) -> None:
    table_id = table.pk
    transaction.on_commit(lambda: live.announce(table_id))


# ---------------------------------------------------------------- opening


def open_table(
    host: Any,
    *,
    ruleset: str,
    options: Mapping[str, Any] | None = None,
    size: int = 4,
    turn_seconds: int = 30,
    rated: bool = False,
    private: bool = False,
) -> OpenTable:
    """A new open table with its host in the first seat. Bad input stores nothing (400
    `ruleset-invalid`, `size-invalid`, `turn-seconds-invalid`, `options-invalid`)."""
    try:
        matches.game_of(ruleset)
    except RuleError as exc:
        raise TournamentError("ruleset-invalid", _("There is no such ruleset."), field="ruleset") from exc
    if type(size) is not int or not MIN_SEATS <= size <= MAX_SEATS:
        message = _("A table has from %(a)d to %(b)d seats.") % {"a": MIN_SEATS, "b": MAX_SEATS}
        raise TournamentError("size-invalid", message, field="size")
    if type(turn_seconds) is not int or not MIN_TURN <= turn_seconds <= MAX_TURN:
        message = _("A turn lasts from %(a)d to %(b)d seconds.") % {"a": MIN_TURN, "b": MAX_TURN}
        raise TournamentError("turn-seconds-invalid", message, field="turn_seconds")
    options = dict(options or {})
    try:
        matches.check_setup(ruleset, options, size, turn_seconds)
    except RuleError as exc:
        raise TournamentError("options-invalid", exc.message, field="options") from exc
    with transaction.atomic():
        _check_waiting(host)
        table = OpenTable.objects.create(
            host=host,
            ruleset=ruleset,
            options=options,
            size=size,
            turn_seconds=turn_seconds,
            rated=bool(rated),
            private=bool(private),
            token=secrets.token_urlsafe(24),
        )
        OpenSeat.objects.create(table=table, index=0, user=host)
        _after_commit(table)
    return table


# ---------------------------------------------------------------- seats


def may_sit(table: OpenTable, user: Any, token: str | None) -> bool:
    """A public table seats anyone; a private one whoever has its link, and a rematch's
    invited players."""
    if not table.private:
        return True
    if token is not None and secrets.compare_digest(str(token).encode(), table.token.encode()):
        return True
    return user.pk in (table.invited or [])


def take_seat(table_id: Any, user: Any, *, index: int | None = None, token: str | None = None) -> OpenTable:
    """Seat `user` (the first free seat unless `index` is given); the table starts when it
    is full. 409 `seat-taken`, `table-full`, `already-seated`, `table-not-open`; 403
    `private-table` without the link; 400 `seat-invalid`."""
    try:
        with transaction.atomic():
            table = _locked(table_id)
            if table.status != OpenTable.OPEN:
                raise _conflict("table-not-open", _("This table is not waiting for players."))
            if not may_sit(table, user, token):
                raise TournamentError("private-table", _("This table is private: use its link."), status=403)
            taken = dict(OpenSeat.objects.filter(table=table).values_list("index", "user_id"))
            if user.pk in taken.values():
                raise _conflict("already-seated", _("You sit at this table already."))
            free = [i for i in range(table.size) if i not in taken]
            if index is None:
                if not free:
                    raise _conflict("table-full", _("Every seat of this table is taken."))
                index = free[0]
            elif type(index) is not int or not 0 <= index < table.size:
                raise TournamentError("seat-invalid", _("This table has no such seat."), field="index")
            elif index in taken:
                raise _conflict("seat-taken", _("That seat is taken."))
            _check_waiting(user)
            with transaction.atomic():  # a savepoint: the unique index may refuse the row
                OpenSeat.objects.create(table=table, index=index, user=user)
            if len(taken) + 1 == table.size:
                _start(table)
            _after_commit(table)
    except IntegrityError as exc:
        # Another player took the seat between our read and our write (no row lock on
        # SQLite's read, or a second request of this player): the index decided.
        raise _conflict("seat-taken", _("That seat is taken.")) from exc
    return table


def leave(table_id: Any, user: Any) -> OpenTable:
    """`user` leaves their seat before the start; a host who leaves closes the table.
    409 `table-not-open` once it started, `not-seated` for someone not at it."""
    with transaction.atomic():
        table = _locked(table_id)
        if table.status != OpenTable.OPEN:
            raise _conflict("table-not-open", _("This table has started: leave it from the match."))
        deleted, _rows = OpenSeat.objects.filter(table=table, user=user).delete()
        if not deleted:
            raise _conflict("not-seated", _("You do not sit at this table."))
        if user.pk == table.host_id:
            table.status = OpenTable.CLOSED
            table.save(update_fields=["status"])
        _after_commit(table)
    return table


def fill_bots(table_id: Any, user: Any, *, strength: str, count: int | None = None) -> OpenTable:
    """The host fills `count` empty seats (every one by default) with bots of `strength`;
    a table full after it starts. A rated table takes no bot (409 `rated-no-bots`)."""
    with transaction.atomic():
        table = _locked(table_id)
        _host_only(table, user)
        if table.status != OpenTable.OPEN:
            raise _conflict("table-not-open", _("This table is not waiting for players."))
        if table.rated:
            raise _conflict("rated-no-bots", _("A rated table is played by people only."))
        if strength not in matches.bot_strengths(table.ruleset):
            raise TournamentError("bot-strength-invalid", _("This game has no such bot."), field="strength")
        taken = set(OpenSeat.objects.filter(table=table).values_list("index", flat=True))
        free = [i for i in range(table.size) if i not in taken]
        if count is not None and (type(count) is not int or not 1 <= count <= len(free)):
            raise TournamentError("count-invalid", _("There are not that many empty seats."), field="count")
        if not free:
            raise _conflict("table-full", _("Every seat of this table is taken."))
        chosen = free if count is None else free[:count]
        OpenSeat.objects.bulk_create(OpenSeat(table=table, index=i, bot=strength) for i in chosen)
        if len(taken) + len(chosen) == table.size:
            _start(table)
        _after_commit(table)
    return table


def _host_only(table: OpenTable, user: Any) -> None:
    if table.host_id != user.pk:
        raise TournamentError("not-host", _("Only the table's host may do this."), status=403)


def start(table_id: Any, user: Any) -> OpenTable:
    """The host starts the table with the seats taken so far (409 `too-few-players` with
    fewer than two seated)."""
    with transaction.atomic():
        table = _locked(table_id)
        _host_only(table, user)
        if table.status != OpenTable.OPEN:
            raise _conflict("table-not-open", _("This table is not waiting for players."))
        if OpenSeat.objects.filter(table=table).count() < MIN_SEATS:
            raise _conflict("too-few-players", _("A table starts with at least two seated."))
        _start(table)
        _after_commit(table)
    return table


def _start(table: OpenTable) -> None:
    """The match of the seats taken, in seat order (the caller's transaction)."""
    places = list(OpenSeat.objects.filter(table=table).select_related("user").order_by("index"))
    names: list[str] = []
    users: list[Any] = []
    bots: dict[int, str] = {}
    for place in places:
        if place.user is not None:
            names.append(place.user.get_username())
            users.append(place.user)
        else:
            bots[len(names)] = place.bot
            names.append(BOT_NAME.format(n=len(bots)))
            users.append(None)
    try:
        match_id = matches.create_open_match(
            table.ruleset,
            names,
            users,
            bots,
            options=dict(table.options),
            turn_seconds=table.turn_seconds,
            created_by=table.host,
        )
    except RuleError as exc:
        raise TournamentError("options-invalid", exc.message, field="options") from exc
    table.status = OpenTable.PLAYING
    table.match_id = match_id
    table.started_at = timezone.now()
    table.save(update_fields=["status", "match_id", "started_at"])


# ---------------------------------------------------------------- after the end


def rematch(table_id: Any, user: Any) -> tuple[OpenTable, bool]:
    """The same table opened again by one of its players: the same rules and seats, the
    caller and the bots in their seats, the other players invited (they sit without the
    link). Asked again, the rematch already open (False: not created now). 409
    `table-not-finished`; 403 `not-a-player`."""
    with transaction.atomic():
        table = _locked(table_id)
        _refresh_status(table)
        if table.status != OpenTable.FINISHED:
            raise _conflict("table-not-finished", _("A rematch follows a finished table."))
        places = list(OpenSeat.objects.filter(table=table).order_by("index"))
        players = [p.user_id for p in places if p.user_id is not None]
        if user.pk not in players:
            raise TournamentError(
                "not-a-player", _("Only the table's players ask for a rematch."), status=403
            )
        existing = OpenTable.objects.filter(rematch_of=table).first()
        if existing is not None:
            return existing, False
        _check_waiting(user)
        again = OpenTable.objects.create(
            host=user,
            ruleset=table.ruleset,
            options=table.options,
            size=table.size,
            turn_seconds=table.turn_seconds,
            rated=table.rated,
            private=table.private,
            token=secrets.token_urlsafe(24),
            rematch_of=table,
            invited=[p for p in players if p != user.pk],
        )
        OpenSeat.objects.bulk_create(
            OpenSeat(
                table=again, index=p.index, user_id=p.user_id if p.user_id == user.pk else None, bot=p.bot
            )
            for p in places
            if p.user_id == user.pk or p.bot
        )
        if OpenSeat.objects.filter(table=again).count() == again.size:
            _start(again)  # the caller and bots only: it plays at once
        _after_commit(again)
        _after_commit(table)
    return again, True


def _refresh_status(table: OpenTable) -> None:
    """A playing table whose match has ended is finished (the listener may not have run yet)."""
    if table.status == OpenTable.PLAYING and matches.match_status(table.match_id) == "finished":
        table.status = OpenTable.FINISHED
        table.save(update_fields=["status"])


def refresh_status(table_id: Any) -> None:
    """A table whose match has ended is finished, whether or not the listener has run."""
    with transaction.atomic():
        table = OpenTable.objects.select_for_update().filter(pk=table_id).first()
        if table is not None:
            _refresh_status(table)


def match_finished(match_id: Any) -> None:
    """The match server's listener (`CACHO_MATCH_FINISHED`): the table is finished, and a
    rated one's result goes to the ratings. Most matches that end are no open table's (a
    tournament's, a scorekeeper's): one read says so, where the lock's transaction took
    three round trips."""
    if not OpenTable.objects.filter(match_id=match_id).exists():
        return
    with transaction.atomic():
        table = OpenTable.objects.select_for_update().filter(match_id=match_id).first()
        if table is None:
            return
        _refresh_status(table)
        if table.rated:
            rate_after_commit(match_id)
        _after_commit(table)
