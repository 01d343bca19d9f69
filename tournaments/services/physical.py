"""Physical tables (docs/physical.md): a table whose match its scorekeeper enters, entry by
entry, each judged by the engine as online play is; the players at the table confirm the
sheet on the scorekeeper's device; then the table's result goes to the standings as an
online table's does (`results.record_table_result`, which waits for the confirmations).

Who: the club's scorekeepers keep score, and so may its owners, organisers and referees
(`KEEPERS`); organisers make a table physical. A guest entry (no account) confirms by
typing its name; an entry with an account by its password, or from its own session.
Every change of a table lands in the tournament log (`table-made-physical`,
`table-imported`, `sheet-confirmed`); the entries themselves are the match's events.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django.contrib.auth import authenticate
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cacho.engine.errors import RecordFormatError, RuleError
from cacho.services.matches import VersionConflict
from tournaments import matches
from tournaments.clubs.roles import has_role, require_role
from tournaments.errors import Forbidden, NotFound, TournamentError
from tournaments.models import Entry, Membership, Table, TableSeat
from tournaments.services import log, results, tables, team_members
from tournaments.services.lifecycle import locked

KEEPERS = (Membership.OWNER, Membership.ORGANISER, Membership.REFEREE, Membership.SCOREKEEPER)


def may_import(user: Any) -> bool:
    """`CACHO_IMPORT_CHECK`: a user who keeps score for some club may import a record."""
    if getattr(user, "is_superuser", False):
        return True
    return Membership.objects.filter(user=user, role__in=KEEPERS).exists()


def may_keep_score(user: Any, table: Table) -> bool:
    return has_role(user, table.round.tournament.club_id, KEEPERS)


def scorekeeper_url(table: Table) -> str | None:
    """The scorekeeper screen of a physical table (None for an online one)."""
    return f"/scorekeeper/tables/{table.pk}/" if table.physical else None


# ---------------------------------------------------------------- reading


def _table(table_id: Any) -> Table:
    try:
        table = Table.objects.select_related("round__tournament").get(pk=int(table_id))
    except (Table.DoesNotExist, TypeError, ValueError) as exc:
        raise NotFound(_("No such table.")) from exc
    return table


def _keeper_table(table_id: Any, by: Any) -> Table:
    table = _table(table_id)
    if not may_keep_score(by, table):
        raise Forbidden(_("Only the club's scorekeepers, organisers and referees keep score at its tables."))
    if not table.physical:
        raise TournamentError("table-not-physical", _("This table is played online."), 409)
    return table


def _open_table(table: Table) -> None:
    if table.status != Table.PLAYING or table.match_id is None:
        raise TournamentError("table-closed", _("This table is closed: its result is recorded."), 409)


def sheet(table_id: Any, by: Any) -> dict[str, Any]:
    """The scorekeeper's screen of a physical table, from the server (nothing is kept in the
    browser): the table and its seats, the match with every die, what may be entered now,
    the sheet so far (record and outcome), the last entry that can be undone, and the
    players' confirmations at the match's current version."""
    table = _keeper_table(table_id, by)
    tournament = table.round.tournament
    seats = list(table.seats.select_related("entry__user").prefetch_related("entry__members"))
    names = matches.seat_names(table.match_id) if table.match_id else []
    data: dict[str, Any] = {
        "table": {
            "id": table.pk,
            "number": table.number,
            "round": table.round.number,
            "status": table.status,
            "physical": table.physical,
            "result": table.result,
            "tournament": {
                "id": tournament.pk,
                "name": tournament.name,
                "ruleset": tournament.ruleset,
                "game": tournament.game,
            },
        },
        "match": None,
        "options": None,
        "record": None,
        "outcome": None,
        "version": 0,
        "over": False,
        "undo": None,
        "closed": table.status == Table.FINISHED,
        "can_import": False,
    }
    confirmed: dict[int, str] = {}
    if table.match_id is not None:
        current = matches.sheet(table.match_id)
        data.update(
            match=current.match,
            options=current.options,
            record=current.record,
            outcome=current.outcome,
            version=current.version,
            over=current.over,
            undo=current.undo if table.status == Table.PLAYING else None,
            can_import=table.status == Table.PLAYING and current.version <= 1,
        )
        confirmed = {c["entry"]: c["how"] for c in table.confirmations if c.get("version") == current.version}
    confirming = {seat.pk for seat in tables.confirming_seats(table)}
    data["seats"] = [
        {
            "index": seat.index,
            "entry": seat.entry_id,
            "name": seat.entry.name,
            "seat_name": names[seat.match_seat]
            if seat.match_seat is not None and seat.match_seat < len(names)
            else None,
            "forfeited": seat.forfeited,
            "account": seat.entry.user_id is not None,
            "username": seat.entry.user.get_username() if seat.entry.user_id else None,
            "members": [member.name for member in seat.entry.members.all()],
            "confirms": seat.pk in confirming,
            "confirmed": confirmed.get(seat.entry_id),
        }
        for seat in seats
    ]
    data["all_confirmed"] = bool(data["over"]) and all(s["confirmed"] for s in data["seats"] if s["confirms"])
    return data


# ---------------------------------------------------------------- entries


def _rule_error(exc: RuleError | RecordFormatError) -> TournamentError:
    return TournamentError(exc.code, exc.message)


def enter(
    table_id: Any, by: Any, payload: dict[str, Any], *, command_id: str, expected_version: int | None
) -> int:
    """A scorekeeper's entry (or `{"type": "undo"}`) at a physical table: an event of its
    match as soon as it is confirmed; the match's version after it. Refused with the
    engine's code and words when illegal (nothing stored), 409 `version-conflict` when the
    sheet moved on (another device), 409 `table-closed` once the result is recorded."""
    table = _keeper_table(table_id, by)
    _open_table(table)
    try:
        return matches.enter(
            table.match_id,
            payload,
            scorekeeper=str(by.pk),
            command_id=command_id,
            expected_version=expected_version,
        )
    except RuleError as exc:
        raise _rule_error(exc) from exc
    except VersionConflict as exc:
        raise TournamentError(
            "version-conflict", _("The sheet moved on (another device?): it is reloaded."), 409
        ) from exc


def sheet_if_keeper(table_id: Any, by: Any) -> dict[str, Any] | None:
    """The sheet for its keepers; None for a player confirming from their own session, who
    may confirm without seeing the keepers' sheet."""
    return sheet(table_id, by) if may_keep_score(by, _table(table_id)) else None


def check(table_id: Any, by: Any, payload: dict[str, Any]) -> list[dict[str, Any]]:
    """What an entry would do now, judged by the engine without storing it (the screen
    asks as the entry is typed)."""
    table = _keeper_table(table_id, by)
    _open_table(table)
    try:
        return matches.check_entry(table.match_id, payload)
    except RuleError as exc:
        raise _rule_error(exc) from exc


# ---------------------------------------------------------------- marking and importing


def make_table_physical(table_id: Any, by: Any) -> Table:
    """An organiser moves a table to a physical one before its play begins: its online match
    is paused for good (no clock, no move) and a physical match with the same seats
    replaces it; seats already forfeited leave the new one too. Logged."""
    return _switch(table_id, by, physical=True)


def make_table_online(table_id: Any, by: Any) -> Table:
    """The reverse, before anything is entered at the table: an online match with the same
    seats replaces its physical one. Logged (`table-made-online`)."""
    return _switch(table_id, by, physical=False)


def _switch(table_id: Any, by: Any, *, physical: bool) -> Table:
    table = _table(table_id)
    with transaction.atomic():
        tournament = locked(table.round.tournament_id)
        require_role(by, tournament.club_id, Membership.MANAGERS)
        table = Table.objects.select_for_update().select_related("round").get(pk=table.pk)
        if table.physical == physical:
            if physical:
                raise TournamentError("table-already-physical", _("This table is physical already."), 409)
            raise TournamentError("table-already-online", _("This table is played online already."), 409)
        _open_table(table)
        # Only before the first move: a match under way replaced from its start would
        # throw away what the table has played.
        if matches.under_way_among([table.match_id]):
            raise TournamentError(
                "table-under-way",
                _(
                    "Play has begun at this table: it changes between online and physical only "
                    "before its first move."
                ),
                409,
            )
        seats = list(
            table.seats.filter(match_seat__isnull=False).select_related("entry__user").order_by("match_seat")
        )
        replaced = table.match_id
        kind = "physical" if physical else "online"
        ref = f"t{tournament.pk}-r{table.round.number}-t{table.number}-{kind}"
        accounts = team_members.accounts_of(seat.members for seat in seats)
        holders = [team_members.seat_user(seat.entry, seat.members, accounts) for seat in seats]
        new = matches.create_table_match(
            tournament.ruleset,
            [seat.entry.name for seat in seats],
            holders,
            options=tournament.options,
            turn_seconds=tournament.turn_seconds,
            ref=ref,
            physical=physical,
            members=[team_members.match_members(seat.members, accounts) for seat in seats],
            partners=[
                team_members.seat_partners(seat.members, holder, accounts)
                for seat, holder in zip(seats, holders, strict=True)
            ],
        )
        for seat in seats:
            if seat.forfeited:
                matches.forfeit_seat(new, seat.match_seat or 0, f"forfeit-{seat.entry_id}-{table.pk}-{kind}")
        # A physical match never plays itself, so a stop matters only for an online one;
        # either way the replaced match is stopped, and nothing more is asked of it.
        matches.pause_match(
            replaced,
            referee=str(getattr(by, "pk", "")),
            reason="moved to a physical table" if physical else "moved to an online table",
            command_id=f"{kind}-{table.pk}-{new}",
        )
        table.match_id, table.physical, table.confirmations = new, physical, []
        table.save(update_fields=["match_id", "physical", "confirmations"])
        log.record(
            tournament,
            log.TABLE_MADE_PHYSICAL if physical else log.TABLE_MADE_ONLINE,
            {
                "round": table.round.number,
                "table": table.number,
                "match": str(new),
                "replaced": str(replaced),
            },
            log.actor_of(by),
        )
    return table


def _defaults(ruleset: str) -> dict[str, Any]:
    return {spec.name: spec.default for spec in matches.option_specs(ruleset)}


def import_record(table_id: Any, by: Any, record: Any) -> Table:
    """A record file (`cacho-match/1`) becomes a physical table's match, while nothing has
    been entered at the table: the record's players must be the table's, in seat order, its
    ruleset and options the tournament's. The engine judges it before anything is stored;
    a record that stops mid-match goes on at the screen. Logged (`table-imported`)."""
    table = _keeper_table(table_id, by)
    with transaction.atomic():
        tournament = locked(table.round.tournament_id)
        table = Table.objects.select_for_update().select_related("round").get(pk=table.pk)
        _open_table(table)
        if matches.match_version(table.match_id) > 1:
            raise TournamentError(
                "sheet-not-empty", _("Entries are made at this table already: a record replaces none."), 409
            )
        if not isinstance(record, dict):
            raise TournamentError("not-an-object", _("A record is a JSON object."))
        seats = list(
            table.seats.filter(match_seat__isnull=False).select_related("entry__user").order_by("match_seat")
        )
        names = [seat.entry.name for seat in seats]
        if matches.record_seat_names(record) != names:
            raise TournamentError(
                "import-players-mismatch",
                _("The record's players must be the table's, in seat order: %(names)s.")
                % {"names": ", ".join(names)},
            )
        if record.get("ruleset") != tournament.ruleset:
            raise TournamentError(
                "import-ruleset-mismatch", _("The record's ruleset is not the tournament's.")
            )
        defaults = _defaults(tournament.ruleset)
        options = record.get("options", {})
        if not isinstance(options, dict) or {**defaults, **options} != {**defaults, **tournament.options}:
            raise TournamentError(
                "import-options-mismatch", _("The record's options are not the tournament's.")
            )
        ref = f"t{tournament.pk}-r{table.round.number}-t{table.number}-import"
        try:
            new = matches.import_table_record(record, [seat.entry.user for seat in seats], by=by, ref=ref)
        except (RuleError, RecordFormatError) as exc:
            raise _rule_error(exc) from exc
        replaced = table.match_id
        table.match_id, table.confirmations = new, []
        table.save(update_fields=["match_id", "confirmations"])
        log.record(
            tournament,
            log.TABLE_IMPORTED,
            {
                "round": table.round.number,
                "table": table.number,
                "match": str(new),
                "replaced": str(replaced),
            },
            log.actor_of(by),
        )
    return table


# ---------------------------------------------------------------- confirming the sheet


def _plain(text: str) -> str:
    """A name as typed on a phone: case, accents and spacing do not matter."""
    decomposed = unicodedata.normalize("NFKD", str(text or ""))
    letters = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(letters.casefold().split())


def _users_of(entry: Entry) -> set[Any]:
    users = {entry.user_id} if entry.user_id else set()
    return users | {m.user_id for m in entry.members.all() if m.user_id}


def confirm(
    table_id: Any, by: Any, entry_id: Any, *, password: str | None = None, name: str | None = None
) -> dict[str, Any]:
    """A player at a physical table confirms its sheet on the scorekeeper's device, once the
    match is over: an entry with an account by its password (or from its own session), a
    guest by typing its name. Logged (`sheet-confirmed`, at the match's version: an entry
    or an undo afterwards makes it stale). When every player still at the table has
    confirmed, the table's result is recorded and reaches the standings."""
    table = _table(table_id)
    with transaction.atomic():
        tournament = locked(table.round.tournament_id)
        table = Table.objects.select_for_update().select_related("round").get(pk=table.pk)
        if not table.physical:
            raise TournamentError("table-not-physical", _("This table is played online."), 409)
        _open_table(table)
        seat = _confirming_seat(table, entry_id)
        entry = seat.entry
        own = getattr(by, "pk", None) in _users_of(entry)
        if not own and not may_keep_score(by, table):
            raise Forbidden(_("Confirm on the scorekeeper's device, or from your own account."))
        outcome = matches.match_result(table.match_id)
        if not outcome.over:
            raise TournamentError(
                "sheet-not-finished", _("The match is not over: its sheet is confirmed at the end."), 409
            )
        how = _proof(entry, own, password, name)
        version = outcome.last_version
        current = [c for c in table.confirmations if c.get("version") == version]
        if not any(c["entry"] == entry.pk for c in current):
            current.append(
                {"entry": entry.pk, "version": version, "how": how, "at": timezone.now().isoformat()}
            )
            table.confirmations = current
            table.save(update_fields=["confirmations"])
            log.record(
                tournament,
                log.SHEET_CONFIRMED,
                {
                    "round": table.round.number,
                    "table": table.number,
                    "match": str(table.match_id),
                    "match_version": version,
                    "entry": entry.pk,
                    "how": how,
                },
                log.actor_of(by),
            )
        closed = tables.sheet_confirmed(table, version) and results.record_table_result(table.pk)
    return {"entry": entry.pk, "how": how, "closed": bool(closed)}


def _confirming_seat(table: Table, entry_id: Any) -> TableSeat:
    try:
        wanted = int(entry_id)
    except (TypeError, ValueError) as exc:
        raise TournamentError("confirm-not-at-table", _("This entry does not play at this table.")) from exc
    for seat in table.seats.select_related("entry__user").prefetch_related("entry__members"):
        if seat.entry_id == wanted:
            if seat.match_seat is None or seat.forfeited or seat.entry.status == Entry.WITHDRAWN:
                raise TournamentError(
                    "confirm-not-at-table", _("This entry left the table: it confirms nothing.")
                )
            return seat
    raise TournamentError("confirm-not-at-table", _("This entry does not play at this table."))


def _proof(entry: Entry, own: bool, password: str | None, name: str | None) -> str:
    if entry.user_id is not None:
        if own:
            return "session"
        if not password:
            raise TournamentError(
                "confirm-password-missing", _("%(name)s confirms with their password.") % {"name": entry.name}
            )
        if authenticate(username=entry.user.get_username(), password=password) is None:
            raise TournamentError(
                "confirm-password-wrong", _("That is not %(name)s's password.") % {"name": entry.name}, 403
            )
        return "password"
    if own:
        return "session"
    accepted = {_plain(entry.name)} | {_plain(m.name) for m in entry.members.all()}
    if not name or _plain(name) not in accepted:
        raise TournamentError(
            "confirm-name-mismatch",
            _("Type the name %(name)s plays under to confirm.") % {"name": entry.name},
        )
    return "name"


def my_tables(user: Any) -> list[dict[str, Any]]:
    """The physical tables in play of the clubs where `user` keeps score, by tournament."""
    clubs = Membership.objects.filter(user=user, role__in=KEEPERS).values_list("club_id", flat=True)
    rows = (
        Table.objects.filter(physical=True, status=Table.PLAYING, round__tournament__club_id__in=list(clubs))
        .select_related("round__tournament")
        .prefetch_related("seats__entry")
        .order_by("round__tournament__name", "round__number", "number")
    )
    return [
        {
            "id": table.pk,
            "number": table.number,
            "round": table.round.number,
            "tournament": {"id": table.round.tournament_id, "name": table.round.tournament.name},
            "players": [seat.entry.name for seat in table.seats.all()],
            "scorekeeper_url": scorekeeper_url(table),
        }
        for table in rows
    ]
