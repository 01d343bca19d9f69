"""Pairs and teams: which tournaments take them, their members (accounts by username, or
guests by name), and the members a table seats (substitutions: `substitutions`).

A member's name (`EntryMember.name`, `TableSeat.members`) is a label kept outside every
chain: the tournament log and an online table's match name a member with an account by
its player id (`logged_member`), so deleting the account renames the label and changes
no event (docs/leaving.md).

A pair or team is one entry: one seat at a table, one line in the standings. Only a game
whose seats can be teams takes them (`matches.team_seats`: Alalay, where a team plays one
scorecard and its members throw in rotation, rules.md §8 AL-8); a bidding game, where
every player holds their own dice, refuses them at creation (`entry-type-game`). In Alalay
every stage format takes pairs and teams, since each is one seat.

A table keeps the members it was drawn with (`TableSeat.members`), which the match plays
and the ratings rate, whatever substitutions come after it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from tournaments import matches
from tournaments.errors import TournamentError
from tournaments.models import Entry, EntryMember, TableSeat, Tournament
from tournaments.services.usernames import user_by_username

NAME_LENGTH = 64


def check_entry_type(ruleset: str, entry_type: str) -> None:
    """Pairs and teams only where the game's seats can be teams (`entry-type-game`)."""
    if entry_type != Tournament.INDIVIDUAL and not matches.team_seats(ruleset):
        raise TournamentError(
            "entry-type-game",
            _("Pairs and teams play Alalay only: in the bidding games every player holds their own dice."),
            field="entry_type",
        )


def parse_member(item: Any) -> tuple[str, Any]:
    """One member as given: a guest's name (a string or `{"name"}`) or an account
    (`{"username"}`, named by its username)."""
    if isinstance(item, dict) and set(item) == {"username"}:
        user = user_by_username(item["username"])
        return user.get_username(), user
    name = item.get("name") if isinstance(item, dict) and set(item) == {"name"} else item
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > NAME_LENGTH:
        raise TournamentError(
            "member-invalid",
            _('A member is a guest\'s name of 1 to 64 characters or {"username": …} of an account.'),
        )
    return name.strip(), None


def logged_member(name: str, user: Any) -> dict[str, Any]:
    """A member as the tournament log names it: an account by its player id, a guest by
    the name it was entered with."""
    if user is not None:
        return {"player": matches.player_id(user)}
    return {"name": name, "guest": True}


def check_distinct(members: Sequence[tuple[str, Any]]) -> None:
    """No two members of an entry share a name, case aside, neither as shown nor as the
    match names them (a guest typed as `p7` beside the account whose player id it is)."""
    shown = [name.casefold() for name, _user in members]
    named = [(name if user is None else matches.player_id(user)).casefold() for name, user in members]
    if len(set(shown)) != len(shown) or len(set(named)) != len(named):
        raise TournamentError("member-name-twice", _("Two members of an entry have the same name."))


def check_free(tournament: Tournament, users: Sequence[Any], entry: Entry | None = None) -> None:
    """An account plays in one entry of a tournament, as a member or as the entry's own
    account (`member-already-entered`)."""
    ids = [u.pk for u in users if u is not None]
    taken = EntryMember.objects.filter(entry__tournament=tournament, user_id__in=ids)
    holding = Entry.objects.filter(tournament=tournament, user_id__in=ids)
    if entry is not None:
        taken, holding = taken.exclude(entry=entry), holding.exclude(pk=entry.pk)
    if taken.exists() or holding.exists():
        raise TournamentError("member-already-entered", _("That player is already in another entry."))


def clean_members(tournament: Tournament, items: Sequence[Any], holder: Any = None) -> list[tuple[str, Any]]:
    """A new entry's members as (name, user or None), checked: as many as the tournament's
    team size, no name twice (case aside), no account (nor the entry's own, `holder`)
    already in another entry."""
    if tournament.entry_type == Tournament.INDIVIDUAL:
        if items:
            raise TournamentError("entry-members-invalid", _("An individual entry has no members."))
        return []
    members = [parse_member(item) for item in items]
    if len(members) != tournament.team_size:
        raise TournamentError(
            "entry-members-invalid", _("This entry needs %d named members.") % tournament.team_size
        )
    check_distinct(members)
    check_free(tournament, [holder, *(user for _name, user in members)])
    return members


def seat_members(entry: Entry) -> list[dict[str, Any]]:
    """The entry's members as a table records them, in the order they take its turns."""
    return [{"name": m.name, "user": m.user_id} for m in entry.members.all()]


def match_members(members: Sequence[dict[str, Any]], accounts: Mapping[int, Any]) -> list[tuple[str, Any]]:
    """A table's members (`seat_members`) as `matches.create_table_match` takes them: each
    name with its account (None: a guest)."""
    return [(m["name"], accounts.get(m["user"])) for m in members]


def accounts_of(members: Iterable[Sequence[dict[str, Any]]]) -> dict[int, Any]:
    """User id -> user, for every account among these tables' members (one query)."""
    ids = {m["user"] for seat in members for m in seat if m["user"] is not None}
    return get_user_model().objects.in_bulk(list(ids)) if ids else {}


def seat_user(entry: Entry, members: Sequence[dict[str, Any]], accounts: Mapping[int, Any]) -> Any:
    """The account that holds the entry's seat in the match: the entry's own, else its first
    member with an account (`accounts`: `accounts_of` them). The match says which member
    throws; every member's account plays the seat (`seat_partners`)."""
    if entry.user_id is not None:
        return entry.user
    return next((accounts[m["user"]] for m in members if m["user"] in accounts), None)


def seat_partners(members: Sequence[dict[str, Any]], holder: Any, accounts: Mapping[int, Any]) -> list[Any]:
    """The members' accounts that play the entry's seat beside its holder (`seat_user`)."""
    holder_id = getattr(holder, "pk", None)
    return [accounts[m["user"]] for m in members if m["user"] in accounts and m["user"] != holder_id]


def lineups(tournament: Tournament) -> dict[int, list[str]]:
    """Entry id -> everyone who plays for it, as the standings and exports list them: the
    members who sat at its tables (by their first table), then its members yet to play.
    Empty for a tournament of individuals."""
    if tournament.entry_type == Tournament.INDIVIDUAL:
        return {}
    out: dict[int, list[str]] = {}
    # Every seat but one drawn for an entry already out of play (forfeited, never in the match).
    seats = TableSeat.objects.filter(table__round__tournament=tournament).exclude(
        forfeited=True, match_seat__isnull=True
    )
    for entry_id, members in seats.order_by("table__round__number", "table__number").values_list(
        "entry_id", "members"
    ):
        names = out.setdefault(entry_id, [])
        names.extend(m["name"] for m in members if m["name"] not in names)
    for entry_id, name in EntryMember.objects.filter(entry__tournament=tournament).values_list(
        "entry_id", "name"
    ):
        names = out.setdefault(entry_id, [])
        if name not in names:
            names.append(name)
    return out
