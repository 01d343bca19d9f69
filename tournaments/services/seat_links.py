"""Seat links: a walk-in (a guest entry, no account) plays its seat at an online table from
a link on its phone (docs/tournaments.md, "Seat links for walk-ins").

Every guest seat of an online table in play has one live link (`SeatLink`), made the first
time the director's pages show the table (`ensure_links`). The token in the link is
random, single-use and stored only as its sha256; it is derived from the link's `salt`
with the server's secret key, so the table card, the slip and the console show the same
link again without the database ever holding it. Opening the link and taking the seat
(`claim`) binds the browser's Django session to that seat, and to its entry: the entry's
later online tables seat the same browser with no new link (`standing_claims`: the
entry's latest claim stands until a link of the entry is revoked, or the entry is claimed
to an account). The match server asks `seat_holder` who the session is
(`CACHO_SEAT_HOLDER_CHECK`), so the match page and its socket treat that browser as the
seat's player, and as nobody else. The director re-issues a link (`reissue`): the old one
is revoked (a browser that claimed it, or followed its entry there, holds the seat no
more) and a new one made; the tournament log records claims, revocations and issues,
never a token.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import segno
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from cacho.edge import limits
from tournaments import matches
from tournaments.clubs.roles import DESK, has_role, require_role
from tournaments.models import Entry, Round, SeatLink, Table, TableSeat
from tournaments.services import log
from tournaments.services.errors import NotFound, TournamentError
from tournaments.services.lifecycle import locked

SESSION_KEY = "cacho_seat_links"  # {link id: seat name} in the browser's session
SESSION_LINKS = 20  # the latest links a browser keeps (one evening's tables, and more)
HMAC_SALT = "tournaments.seat_links"
TOKEN_LENGTHS = range(40, 50)  # 32 bytes in unpadded base64url: 43 characters


def token_of(link: SeatLink) -> str:
    mac = salted_hmac(HMAC_SALT, f"{link.table_id}:{link.entry_id}:{link.salt}", algorithm="sha256")
    return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode()


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _new_link(table_id: int, entry_id: int) -> SeatLink:
    link = SeatLink(table_id=table_id, entry_id=entry_id, salt=secrets.token_hex(16))
    link.token_hash = token_hash(token_of(link))
    return link


def path_of(token: str) -> str:
    return reverse("frontend:seat-link", args=[token])


def qr_svg(url: str) -> str:
    """The link as a QR code, an inline SVG (no XML declaration) that scales with its box."""
    return str(segno.make(url, error="m").svg_inline(scale=4, omitsize=True, light="#fff", title=url))


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
    missing = [_new_link(t, e) for t, e in sorted(wanted - set(found))]
    if missing:
        SeatLink.objects.bulk_create(missing, ignore_conflicts=True)
        found = live()
    return found


def standing_claims(entry_ids: Iterable[int]) -> dict[int, int]:
    """Per entry: the link whose browser plays the entry now, wherever the entry sits. The
    entry's latest claim or revocation decides: a claim stands (at its table and the
    entry's later ones) until a revocation of any of the entry's links ends it, and a claim
    of a re-issued link replaces it. A followed seat's link is not claimed itself, so only
    a token claim ever makes a link `claimed`. An entry claimed to an account plays signed
    in: no claim of it stands."""
    ids = set(entry_ids)
    if not ids:
        return {}
    rows = (
        SeatLink.objects.filter(entry_id__in=ids, entry__user__isnull=True)
        .exclude(status=SeatLink.ACTIVE)
        .values_list("pk", "entry_id", "status", "claimed_at", "revoked_at", "created_at")
    )
    latest: dict[int, tuple[Any, int, str]] = {}
    for pk, entry, status, claimed_at, revoked_at, created_at in rows:
        when = (revoked_at if status == SeatLink.REVOKED else claimed_at) or created_at
        if entry not in latest or (when, pk) > latest[entry][:2]:
            latest[entry] = (when, pk, status)
    return {entry: pk for entry, (_w, pk, status) in latest.items() if status == SeatLink.CLAIMED}


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
    followed = standing_claims(s.entry_id for s in seats)  # their browser follows them here
    out: dict[int, list[SeatLinkRow]] = {}
    for seat in seats:
        link = links.get((seat.table_id, seat.entry_id))
        if link is None:
            continue
        path = path_of(token_of(link))
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
    followed = standing_claims(s.entry_id for s in seats)
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
    if str(round_id).isdigit():
        rnd = Round.objects.select_related("tournament").filter(pk=int(round_id)).first()
    if rnd is None or rnd.status != Round.PLAYING or not may_see_links(user, rnd.tournament.club_id):
        return
    if rnd.clock_seconds is not None or isinstance(minutes, bool) or not isinstance(minutes, int | float):
        return
    if not 0 < minutes < 100_000:
        return
    warn_unclaimed(rnd, False)


# ---------------------------------------------------------------- claiming


@dataclass(frozen=True)
class Claimed:
    match_id: str
    seat: str
    entry: int
    name: str
    tournament: int
    table: int


RATE_SCOPE = "seat-link"  # failed openings per address (`CACHO_RATES`)


def check_rate(address: str) -> None:
    """Refuse (`rate-limited`) an address past its failed openings: a token cannot be
    guessed, and nobody gets to try many. A good link counts nothing, so a club's walk-ins
    behind one address never lock each other out."""
    wait = limits.peek(RATE_SCOPE, address)
    if wait is not None:
        raise TournamentError(
            "rate-limited", _("Too many seat links failed from here: try again in a few minutes."), 429
        )


def count_failure(address: str) -> None:
    limits.hit(RATE_SCOPE, address)


def _invalid() -> TournamentError:
    return TournamentError(
        "seat-link-invalid", _("This seat link is not valid: ask the tournament director for yours."), 404
    )


def _used() -> TournamentError:
    return TournamentError(
        "seat-link-used",
        _("This seat link has been used already. If you did not open it, tell the tournament director."),
        409,
    )


def find(token: Any) -> SeatLink:
    """The link of a token, as it is now (no lock), or `seat-link-invalid`."""
    if not isinstance(token, str) or len(token) not in TOKEN_LENGTHS:
        raise _invalid()
    link = (
        SeatLink.objects.select_related("table__round__tournament", "entry")
        .filter(token_hash=token_hash(token))
        .first()
    )
    if link is None:
        raise _invalid()
    return link


def check_open(link: SeatLink) -> TableSeat:
    """The seat the link opens, or why it cannot be taken: revoked, used, the table no
    longer online or in play, the seat held by an account."""
    if link.status == SeatLink.REVOKED:
        raise TournamentError(
            "seat-link-revoked",
            _("This seat link was revoked by the tournament director: ask for the new one."),
            410,
        )
    if link.status == SeatLink.CLAIMED:
        raise _used()
    if link.entry_id in standing_claims([link.entry_id]):
        raise _used()  # the browser that claimed the entry's earlier link plays it here too
    table = link.table
    seat = TableSeat.objects.filter(table=table, entry_id=link.entry_id).first()
    if (
        seat is None
        or seat.forfeited
        or seat.match_seat is None
        or table.physical
        or table.status != Table.PLAYING
        or table.match_id is None
    ):
        raise TournamentError(
            "seat-link-closed", _("This table is no longer played online from a link."), 410
        )
    found = matches.seat_name_and_user(table.match_id, seat.match_seat)
    if link.entry.user_id is not None or found is None or found[1] is not None:
        raise TournamentError(
            "seat-held", _("An account holds this seat already: its player signs in to play it."), 409
        )
    return seat


def claim(token: Any, session: Any) -> Claimed:
    """Take the seat of a link: the link is used up, the claim logged (no token), and the
    session bound to that seat of that match (nothing is stored when it is refused)."""
    link = find(token)
    check_open(link)
    with transaction.atomic():
        tournament = locked(link.table.round.tournament_id)
        link.refresh_from_db(fields=["status"])
        seat = check_open(link)
        taken = SeatLink.objects.filter(pk=link.pk, status=SeatLink.ACTIVE).update(
            status=SeatLink.CLAIMED, claimed_at=timezone.now()
        )
        if not taken:
            raise _used()
        table = link.table
        log.record(
            tournament,
            log.SEAT_LINK_CLAIMED,
            {"link": link.pk, "round": table.round.number, "table": table.number, "entry": link.entry_id},
            "guest",
        )
    found = matches.seat_name_and_user(table.match_id, seat.match_seat)
    name = found[0] if found else link.entry.name
    held = session.get(SESSION_KEY)
    held = dict(held) if isinstance(held, dict) else {}
    held.pop(str(link.pk), None)
    held[str(link.pk)] = name  # by link, not match: a table switched physical and back keeps its seats
    session[SESSION_KEY] = dict(list(held.items())[-SESSION_LINKS:])
    return Claimed(str(table.match_id), name, link.entry_id, link.entry.name, tournament.pk, table.number)


def _held_links(session: Any) -> dict[int, str]:
    """The links the browser session claimed: {link id: seat name}."""
    try:
        held = session.get(SESSION_KEY)
    except Exception:  # a session that cannot be read holds nothing
        return {}
    if not isinstance(held, dict):
        return {}
    return {int(key): str(name) for key, name in held.items() if str(key).isdigit()}


def session_entries(session: Any, tournament_id: int) -> set[int]:
    """The entries of the tournament the browser session plays: those whose standing claim it made."""
    held = _held_links(session)
    if not held:
        return set()
    entries = SeatLink.objects.filter(
        pk__in=held, status=SeatLink.CLAIMED, table__round__tournament_id=tournament_id
    ).values_list("entry_id", flat=True)
    return {entry for entry, link in standing_claims(entries).items() if link in held}


def seat_holder(match_id: Any, session: Any) -> str | None:
    """`CACHO_SEAT_HOLDER_CHECK`: the seat the browser session holds in the match: the one it
    claimed there while its link stands, else its entry's seat at a later online table
    while its claim of the entry stands (a re-issued link takes the seat, and the entry's
    following ones, from the browser that claimed the old one)."""
    held = _held_links(session)
    if not held:
        return None
    claimed = list(
        SeatLink.objects.filter(pk__in=held, status=SeatLink.CLAIMED).values_list(
            "pk", "entry_id", "table__match_id"
        )
    )
    for pk, _entry, table_match in claimed:
        if str(table_match) == str(match_id):
            return held[pk]
    standing = standing_claims(entry for _pk, entry, _m in claimed)
    followed = [entry for entry, link in standing.items() if link in held]
    if not followed:
        return None
    seat = (
        TableSeat.objects.filter(
            table__match_id=str(match_id),
            table__physical=False,
            entry_id__in=followed,
            match_seat__isnull=False,
        )
        .values_list("match_seat", flat=True)
        .first()
    )
    if seat is None:
        return None
    found = matches.seat_name_and_user(str(match_id), seat)
    return None if found is None or found[1] is not None else str(found[0])


def holds_entry(session: Any, link: SeatLink) -> bool:
    """Whether the browser session plays the link's entry (the link's own claim, or its entry's)."""
    return link.entry_id in session_entries(session, link.table.round.tournament_id)


# ---------------------------------------------------------------- the director


def reissue(table_id: Any, entry_id: Any, by: Any) -> SeatLink:
    """Revoke the seat's live link (claimed or not) and issue a new one (organisers and
    referees); both logged, without a token."""
    if not str(table_id).isdigit() or not str(entry_id).isdigit():
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
        followed = int(entry_id) in standing_claims([int(entry_id)])  # a browser plays it here
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
        new = _new_link(table.pk, int(entry_id))
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
        numbers[table_id]: [{**row.as_dict(), "qr": qr_svg(row.url)} for row in rows]
        for table_id, rows in seat_link_rows(tables, absolute).items()
    }


def rows_for(
    tables: Iterable[Table], user: Any, club_id: int, absolute: Callable[[str], str]
) -> dict[int, Any]:
    """The director's seat links per table id; nobody else's (an empty dict)."""
    if not may_see_links(user, club_id):
        return {}
    return {k: [r.as_dict() for r in v] for k, v in seat_link_rows(list(tables), absolute).items()}
