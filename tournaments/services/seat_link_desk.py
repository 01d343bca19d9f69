"""Seat links on the director's side: which guest seats play from a link and their live
links (made on the first look of the director's pages), the links on the table cards, slips
and console, the warning before a round starts with seats unclaimed, and re-issuing a link
(`tournaments.services.seat_links` holds the tokens and the walk-in's claim)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cacho.edge.inputs import plain_digits
from tournaments import matches
from tournaments.clubs.roles import DESK, has_role, require_role
from tournaments.errors import NotFound, TournamentError
from tournaments.models import Entry, Round, SeatLink, Table, TableSeat
from tournaments.services import log, seat_links
from tournaments.services.lifecycle import locked

# ---------------------------------------------------------------- which seats have links


def guest_seats(tables: Sequence[Table]) -> list[TableSeat]:
    """The seats that play from a link: at an online table still in play, a seat in its
    match held by no account, of a guest entry (no account, not a bot) still playing."""
    online = [t for t in tables if not t.physical and t.status == Table.PLAYING and t.match_id]
    if not online:
        return []
    held = matches.seated_by_account([t.match_id for t in online])
    seats = TableSeat.objects.filter(
        table__in=online,
        forfeited=False,
        match_seat__isnull=False,
        entry__user__isnull=True,
        entry__is_bot=False,
    ).select_related("entry", "table")
    return [
        s
        for s in seats.order_by("table__number", "index")
        if (str(s.table.match_id), s.match_seat) not in held
    ]


def ensure_links(tables: Sequence[Table]) -> dict[tuple[int, int], SeatLink]:
    """The live link of every guest seat of these tables, made where missing (a read of
    the director's pages: idempotent, and two at once make one link, the database's
    constraint refusing the second)."""
    seats = guest_seats(tables)
    if not seats:
        return {}
    wanted = {(s.table_id, s.entry_id) for s in seats}

    def live() -> dict[tuple[int, int], SeatLink]:
        rows = SeatLink.objects.filter(table_id__in={t for t, _e in wanted}).exclude(status=SeatLink.REVOKED)
        return {(r.table_id, r.entry_id): r for r in rows if (r.table_id, r.entry_id) in wanted}

    found = live()
    missing = [seat_links.new_link(t, e) for t, e in sorted(wanted - set(found))]
    if missing:
        SeatLink.objects.bulk_create(missing, ignore_conflicts=True)
        found = live()
    return found


@dataclass(frozen=True)
class SeatLinkRow:
    link: int
    table: int
    entry: int
    name: str
    seat: int  # from 1, as the table card numbers the seats
    status: str  # waiting (no one has opened it) or claimed
    url: str
    qr_url: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "link": self.link,
            "entry": self.entry,
            "name": self.name,
            "seat": self.seat,
            "status": self.status,
            "url": self.url,
            "qr_url": self.qr_url,
        }


def seat_link_rows(tables: Sequence[Table], absolute: Callable[[str], str]) -> dict[int, list[SeatLinkRow]]:
    """Per table id: its guest seats' links for the director (`absolute` makes a path a
    full URL, e.g. `request.build_absolute_uri`)."""
    links = ensure_links(tables)
    seats = guest_seats(tables)
    followed = seat_links.standing_claims(s.entry_id for s in seats)  # their browser follows them here
    out: dict[int, list[SeatLinkRow]] = {}
    for seat in seats:
        link = links.get((seat.table_id, seat.entry_id))
        if link is None:
            continue
        path = seat_links.path_of(seat_links.token_of(link))
        out.setdefault(seat.table_id, []).append(
            SeatLinkRow(
                link.pk,
                seat.table_id,
                seat.entry_id,
                seat.entry.name,
                seat.index + 1,
                "claimed" if link.status == SeatLink.CLAIMED or seat.entry_id in followed else "waiting",
                absolute(path),
                absolute(path + "qr.svg"),
            )
        )
    return out


def waiting_entries(tables: Sequence[Table]) -> dict[int, list[int]]:
    """Per table id: the guest entries whose player has not taken the seat yet (public:
    no link, no token; a seat never shown to the director has no link yet and waits too;
    an entry whose browser follows it from an earlier table does not wait)."""
    seats = guest_seats(tables)
    followed = seat_links.standing_claims(s.entry_id for s in seats)
    claimed = set(
        SeatLink.objects.filter(table__in=[s.table_id for s in seats], status=SeatLink.CLAIMED).values_list(
            "table_id", "entry_id"
        )
    )
    out: dict[int, list[int]] = {}
    for seat in seats:
        if (seat.table_id, seat.entry_id) not in claimed and seat.entry_id not in followed:
            out.setdefault(seat.table_id, []).append(seat.entry_id)
    return out


def may_see_links(user: Any, club_id: int) -> bool:
    """The links are the director's (organisers and referees): anyone holding one plays
    that seat."""
    return has_role(user, club_id, DESK)


# ---------------------------------------------------------------- starting a round


def unclaimed_seats(rnd: Round) -> list[dict[str, Any]]:
    """The guest seats of the round's online tables whose player has not taken the seat:
    `[{"table", "entry", "name"}]` (what the start of the round warns about)."""
    tables = list(rnd.tables.all())
    waiting = waiting_entries(tables)
    names = dict(
        Entry.objects.filter(pk__in=[e for ids in waiting.values() for e in ids]).values_list("pk", "name")
    )
    numbers = {t.pk: t.number for t in tables}
    return [
        {"table": numbers[table_id], "entry": entry_id, "name": names.get(entry_id, "")}
        for table_id in sorted(waiting, key=lambda t: numbers[t])
        for entry_id in waiting[table_id]
    ]


class UnclaimedSeats(TournamentError):
    """A warning the director confirms: the round has guest seats waiting for their player."""

    def __init__(self, seats: list[dict[str, Any]]) -> None:
        super().__init__(
            "unclaimed-guest-seats",
            _(
                "%(n)s guest seats are waiting for their player: until they open their seat link, "
                "the turn timer plays for them. Start anyway?"
            )
            % {"n": len(seats)},
            409,
        )
        self.seats = seats


def warn_unclaimed(rnd: Round | None, confirm: bool) -> None:
    """Refuse (`unclaimed-guest-seats`, a warning) to start the round while guest seats
    wait for their player, unless the director confirmed."""
    if confirm or rnd is None:
        return
    seats = unclaimed_seats(rnd)
    if seats:
        raise UnclaimedSeats(seats)


def warn_on_clock_start(round_id: Any, user: Any, minutes: Any) -> None:
    """The warning before the director starts the round's clock: only for a director, a
    clock still idle and a length that the clock takes (else the clock's own refusal
    answers), when guest seats wait for their player."""
    rnd = None
    if plain_digits(round_id):
        rnd = Round.objects.select_related("tournament").filter(pk=int(round_id)).first()
    if rnd is None or rnd.status != Round.PLAYING or not may_see_links(user, rnd.tournament.club_id):
        return
    if rnd.clock_seconds is not None or isinstance(minutes, bool) or not isinstance(minutes, int | float):
        return
    if not 0 < minutes < 100_000:
        return
    warn_unclaimed(rnd, False)


# ---------------------------------------------------------------- the director


def reissue(table_id: Any, entry_id: Any, by: Any) -> SeatLink:
    """Revoke the seat's live link (claimed or not) and issue a new one (organisers and
    referees); both logged, without a token."""
    if not plain_digits(table_id) or not plain_digits(entry_id):
        raise NotFound(_("No such seat."))
    table = Table.objects.select_related("round").filter(pk=int(table_id)).first()
    if table is None:
        raise NotFound(_("No such seat."))
    with transaction.atomic():
        tournament = locked(table.round.tournament_id)
        require_role(by, tournament.club_id, DESK)
        seats = [s for s in guest_seats([table]) if s.entry_id == int(entry_id)]
        if not seats:
            raise TournamentError(
                "seat-link-none", _("Only a guest's seat at an online table in play has a seat link.")
            )
        old = SeatLink.objects.select_for_update().filter(table=table, entry_id=int(entry_id))
        old = old.exclude(status=SeatLink.REVOKED).first()
        followed = int(entry_id) in seat_links.standing_claims([int(entry_id)])  # a browser plays it here
        payload = {"round": table.round.number, "table": table.number, "entry": int(entry_id)}
        if old is not None:
            old.status, old.revoked_at = SeatLink.REVOKED, timezone.now()
            old.save(update_fields=["status", "revoked_at"])
            log.record(
                tournament,
                log.SEAT_LINK_REVOKED,
                {**payload, "link": old.pk, "was_claimed": old.claimed_at is not None or followed},
                log.actor_of(by),
            )
        new = seat_links.new_link(table.pk, int(entry_id))
        try:
            with transaction.atomic():
                new.save()
        except IntegrityError as exc:  # a console read made one in between: ask again
            raise TournamentError(
                "seat-link-busy", _("The seat link changed meanwhile: try again."), 409
            ) from exc
        log.record(tournament, log.SEAT_LINK_ISSUED, {**payload, "link": new.pk}, log.actor_of(by))
    return new


def print_rows(rnd: Round, user: Any, absolute: Callable[[str], str]) -> dict[int, list[dict[str, Any]]]:
    """For the table cards and the result slips: per table number, its guest seats' links
    with their QR codes (inline SVG) — the director's, nobody else's."""
    if not may_see_links(user, rnd.tournament.club_id):
        return {}
    tables = list(rnd.tables.all())
    numbers = {t.pk: t.number for t in tables}
    return {
        numbers[table_id]: [{**row.as_dict(), "qr": seat_links.qr_svg(row.url)} for row in rows]
        for table_id, rows in seat_link_rows(tables, absolute).items()
    }


def rows_for(
    tables: Iterable[Table], user: Any, club_id: int, absolute: Callable[[str], str]
) -> dict[int, Any]:
    """The director's seat links per table id; nobody else's (an empty dict)."""
    if not may_see_links(user, club_id):
        return {}
    return {k: [r.as_dict() for r in v] for k, v in seat_link_rows(list(tables), absolute).items()}
