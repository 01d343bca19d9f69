"""Deleting an account (docs/leaving.md): its personal data goes, its numbers stay.

The match and tournament logs are append-only and hash-chained, and no event changes
here. New events name an account by its player id (`p7`), so what is erased is what
lies outside the chains: the account's name, address, password and everything only it
used. The `User` row stays as an empty shell (`deleted-player-7`, no address, no usable
password, inactive): seats, entries, ratings and season results keep pointing at the
same row, so standings and ratings keep their numbers and a rebuild gives them again.

Refused (a `TournamentError` with a stable code, nothing changed): a wrong password
(`password-wrong`), an account deleted already (`account-deleted`), a seat at a match
still played (`seat-in-play`: the table ends first), an entry still in play in a
tournament not finished (`entry-in-play`: withdraw first).
"""

from __future__ import annotations

import math
from typing import Any

from django.contrib.admin.models import LogEntry
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from cacho.edge import limits
from tournaments import matches
from tournaments.accounts.models import Account
from tournaments.accounts.services import sign_out_everywhere
from tournaments.errors import TournamentError
from tournaments.models import ClubInvitation, Entry, EntryMember, Membership, TableSeat, Tournament
from tournaments.notices.models import HiddenTab, Notice, NoticeSettings, PushSubscription
from tournaments.open_tables.models import OpenSeat, OpenTable
from tournaments.seasons.models import LeagueRole
from tournaments.services import log
from tournaments.services.lifecycle import PLAYING_STATUSES, locked

SHELL_USERNAME = "deleted-player-{n}"
# An entry's name is stored, shown to everyone in every language: kept in one.
ENTRY_NAME = "deleted player {n}"


def delete_account(user: Any, password: Any) -> int:
    """Delete the account `user` (its password confirmed): answers the number it is shown
    by from now on ("deleted player N")."""
    if not user.is_active or matches.player_deleted(user):
        raise TournamentError("account-deleted", _("This account is deleted already."), status=409)
    wait = limits.hit("account-change", f"user:{user.pk}")  # a password guessed at no faster here
    if wait is not None:
        raise TournamentError(
            "rate-limited",
            _("Too many requests of this kind: try again in %(minutes)d minutes.")
            % {"minutes": max(1, math.ceil(wait / 60))},
            status=429,
        )
    if not user.check_password(str(password or "")):
        raise TournamentError("password-wrong", _("That is not your password."), status=403, field="password")
    with transaction.atomic():
        _refuse_while_playing(user)
        number = matches.forget_player(user)
        _rename_entries(user, number)
        _erase_personal_data(user, number)
    return number


def _refuse_while_playing(user: Any) -> None:
    if matches.live_matches_of(user):
        raise TournamentError(
            "seat-in-play",
            _("You hold a seat at a table still being played: delete the account once it ends."),
            status=409,
        )
    in_play = (
        Entry.objects.filter(Q(user=user) | Q(members__user=user), status__in=PLAYING_STATUSES)
        .exclude(tournament__status=Tournament.FINISHED)
        .distinct()
    )
    if in_play.exists():
        raise TournamentError(
            "entry-in-play",
            _("You are entered in a tournament not finished yet: withdraw from it first."),
            status=409,
        )


def _rename_entries(user: Any, number: int) -> None:
    """The account's entries take the name "deleted player N", each by an `entry-renamed`
    event of its tournament's log (naming only the entry), so a season counting it reads
    the new name. As a pair's or team's member it takes that name too, in the entry and at
    every table it was drawn at (the log names it by its player id, or by the name an older
    event carries)."""
    name = ENTRY_NAME.format(n=number)
    for entry_id, tournament_id in Entry.objects.filter(user=user).values_list("pk", "tournament_id"):
        tournament = locked(tournament_id)
        Entry.objects.filter(pk=entry_id).update(name=name)
        log.record(tournament, log.ENTRY_RENAMED, {"entry": entry_id}, "system")
    EntryMember.objects.filter(user=user).update(name=name, user=None)
    _rename_at_tables(user, name)


def _rename_at_tables(user: Any, name: str) -> None:
    """The member's name in the tables' line-ups (`TableSeat.members`); the account id stays,
    the ratings' fold reads it."""
    team_seats = TableSeat.objects.exclude(members=[]).exclude(
        entry__tournament__entry_type=Tournament.INDIVIDUAL
    )
    for seat in team_seats.only("pk", "members").iterator():
        if any(m.get("user") == user.pk for m in seat.members):
            seat.members = [{**m, "name": name} if m.get("user") == user.pk else m for m in seat.members]
            seat.save(update_fields=["members"])


def _erase_personal_data(user: Any, number: int) -> None:
    """What only the account used goes; what others' records point at stays, nameless."""
    sign_out_everywhere(user)  # every session and the API token
    Account.objects.filter(user=user).delete()
    Membership.objects.filter(user=user).delete()
    LeagueRole.objects.filter(user=user).delete()
    if user.email:
        ClubInvitation.objects.filter(email__iexact=user.email).delete()
    Notice.objects.filter(user=user).delete()
    NoticeSettings.objects.filter(user=user).delete()
    PushSubscription.objects.filter(user=user).delete()
    HiddenTab.objects.filter(user=user).delete()
    OpenSeat.objects.filter(user=user, table__status=OpenTable.OPEN).delete()
    OpenTable.objects.filter(host=user, status=OpenTable.OPEN).update(status=OpenTable.CLOSED)
    LogEntry.objects.filter(user=user).delete()
    user.username = SHELL_USERNAME.format(n=number)
    user.email = ""
    user.first_name = ""
    user.last_name = ""
    user.set_unusable_password()
    user.is_active = False
    user.is_staff = False
    user.is_superuser = False
    user.last_login = None
    user.save()
    user.groups.clear()
    user.user_permissions.clear()
