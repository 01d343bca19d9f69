"""Players by their pseudonymous id: the seat name a new match gives an account (`p7`),
and the name shown for a seat, resolved outside the chain (docs/leaving.md).

A seat's events name it by its seat name forever. What the pages show beside it is
decided here, at read time: the account's name for a seat named by a player id, "deleted
player 7" once that account is deleted (in old matches too, whose seats carry the name
they were given), and the seat name itself for every other seat (a label a friendly
match's creator typed, a guest's entry name, a bot)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Case, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from cacho.engine.games import game_for
from cacho.models import PLAYER_PREFIX, Match, Player, Seat
from cacho.services import match_reads


def player_of(user: Any) -> Player:
    """The account's player row, made the first time the account is seated."""
    player, _created = Player.objects.get_or_create(user=user)
    return player


def seat_name(user: Any) -> str:
    """The seat name a new match gives this account: its player id."""
    return player_of(user).public_id


def seat_names(users: Iterable[Any]) -> dict[Any, str]:
    """`seat_name` of several accounts (user id -> its player id), their player rows read
    in one query (a row is made for an account seated for the first time)."""
    users = list(users)
    known = dict(Player.objects.filter(user__in=[u.pk for u in users]).values_list("user_id", "pk"))
    return {u.pk: f"{PLAYER_PREFIX}{known[u.pk]}" if u.pk in known else seat_name(u) for u in users}


def deleted_label(number: int) -> str:
    return _("deleted player %(n)d") % {"n": number}


def label_of(player: Player, given: str = "") -> str:
    """What the pages show for a player: the label its seat was given (a tournament entry's
    name) or the account's name, and "deleted player N" once the account is deleted."""
    if player.deleted_at is not None or player.user is None:
        return deleted_label(player.pk)
    return given or str(player.user.get_username())


def label_seats(match_id: Any, labels: dict[int, str]) -> None:
    """Give seats (by index) the names pages show for them, outside the chain."""
    if not labels:
        return
    # One UPDATE for the match's seats rather than one per seat (a round draws many tables).
    chosen = Case(*(When(index=index, then=Value(label[:120])) for index, label in labels.items()))
    Seat.objects.filter(match_id=match_id, index__in=list(labels)).update(label=chosen)


def seat_labels(seats: Iterable[Seat]) -> dict[str, str]:
    """Seat name -> the name shown for it, for the seats of one match. Only the seat's own
    account resolves it: a seat is shown by its player's name when the account holding it
    is that player (a label a creator typed that merely looks like `p7` stays a label)."""
    return {name: label for (_match, name), label in labels_by_match(seats).items()}


def labels_by_match(seats: Iterable[Seat]) -> dict[tuple[str, str], str]:
    """(match id, seat name) -> the name shown for it, for seats of any matches (one query)."""
    seats = list(seats)
    given = {(str(seat.match_id), seat.name): seat.label for seat in seats}
    return {
        (match_id, name): name if player is None else label_of(player, given.get((match_id, name), ""))
        for (match_id, name), player in seat_players(seats).items()
    }


def seat_players(
    seats: Iterable[Seat], accounts: dict[Any, Player] | None = None
) -> dict[tuple[str, str], Player | None]:
    """(match id, seat name) -> the player the seat is shown as (None: by its own name).
    `accounts`: the seats' players by user id, when the caller has read them."""
    seats = list(seats)
    if accounts is None:
        accounts = players_by_user({s.user_id for s in seats if s.user_id is not None})
    found: dict[tuple[str, str], Player | None] = {}
    for seat in seats:
        player = accounts.get(seat.user_id) if seat.user_id is not None else None
        shown = player is not None and (player.deleted_at is not None or seat.name == player.public_id)
        found[(str(seat.match_id), seat.name)] = player if shown else None
    return found


def players_by_user(users: Iterable[Any]) -> dict[Any, Player]:
    """User id -> its player row, with its account (one query)."""
    return {p.user_id: p for p in match_reads.players_of(users)}


@dataclass(frozen=True)
class Seating:
    """Who plays a match's seats, read once for a request: the seats in index order, each
    with its account, and the accounts partnering them (seat index -> user ids)."""

    seats: list[Seat]
    partners: dict[int, list[Any]]

    def seat_of(self, user_id: Any) -> Seat | None:
        """`matches.seat_of_user` from what was read: the account's own seat, else the
        first by index that it partners."""
        for seat in self.seats:
            if seat.user_id is not None and seat.user_id == user_id:
                return seat
        for seat in self.seats:
            if user_id in self.partners.get(seat.index, ()):
                return seat
        return None

    def users(self) -> set[Any]:
        """Every account that plays a seat."""
        held = {seat.user_id for seat in self.seats if seat.user_id is not None}
        return held.union(*self.partners.values())


def seating(match: Match) -> Seating:
    """The match's `Seating`: two queries, one where no seat can be a pair's or a team's
    (only those are partnered: `matches.add_partners` is given a team's members)."""
    seats = match_reads.seats(match.pk)
    partners: dict[int, list[Any]] = {}
    if game_for(match.ruleset).traits.team_seats:
        for index, user in match_reads.partners(match.pk):
            partners.setdefault(index, []).append(user)
    return Seating(seats, partners)


def member_players(seated: Seating, accounts: dict[Any, Player]) -> dict[int, list[Player]]:
    """Seat index -> the players of the accounts that play it (its holder, then its
    partners): a pair's or team's members named in the match by their player ids. Only
    these resolve a member's name; a guest's name that looks like `p7` stays a name.
    `accounts`: players by user id (`players_by_user` of `seated.users()`)."""
    held = {seat.index: [seat.user_id] for seat in seated.seats if seat.user_id is not None}
    for index, users in seated.partners.items():
        held.setdefault(index, []).extend(users)
    return {index: [accounts[user] for user in users if user in accounts] for index, users in held.items()}


def match_labels(match_id: Any) -> dict[str, str]:
    """`seat_labels` of one match's seats."""
    return seat_labels(Seat.objects.filter(match_id=match_id).order_by("index"))


def forget(user: Any) -> int:
    """Mark the account's player deleted (made now if it never sat anywhere, so it has a
    number to be shown by); answers that number. The caller's transaction."""
    player = player_of(user)
    if player.deleted_at is None:
        player.deleted_at = timezone.now()
        player.save(update_fields=["deleted_at"])
    Seat.objects.filter(user=user).exclude(label="").update(label="")  # an entry's name may be theirs
    return int(player.pk)


def forgotten(user: Any) -> bool:
    """The account's player is deleted."""
    return Player.objects.filter(user=user, deleted_at__isnull=False).exists()
