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
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import segno
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from cacho.edge import limits
from cacho.edge.inputs import plain_digits
from tournaments import matches
from tournaments.errors import TournamentError
from tournaments.models import SeatLink, Table, TableSeat
from tournaments.services import log
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


def new_link(table_id: int, entry_id: int) -> SeatLink:
    link = SeatLink(table_id=table_id, entry_id=entry_id, salt=secrets.token_hex(16))
    link.token_hash = token_hash(token_of(link))
    return link


def path_of(token: str) -> str:
    return reverse("frontend:seat-link", args=[token])


def qr_svg(url: str) -> str:
    """The link as a QR code, an inline SVG (no XML declaration) that scales with its box."""
    return str(segno.make(url, error="m").svg_inline(scale=4, omitsize=True, light="#fff", title=url))


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
    return {int(key): str(name) for key, name in held.items() if plain_digits(key)}


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
