"""Substitutions: a member of a pair or team replaced between rounds.

A substitution is an event of the tournament log (`member-substituted`): the entry's
members change for the tables drawn after it. The newcomer takes the place in the rotation
of the member it replaces. A table keeps the members it was drawn with (`TableSeat.members`).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.clubs.roles import DESK, require_role
from tournaments.errors import NotFound, TournamentError
from tournaments.models import Entry, Table, TableSeat, Tournament
from tournaments.services import log
from tournaments.services.lifecycle import PLAYING_STATUSES, locked
from tournaments.services.team_members import check_distinct, check_free, logged_member, parse_member


def substitute(entry_id: int, by: Any, out: str, incoming: Any) -> Entry:
    """`incoming` takes `out`'s place in the entry (same place in the rotation) from the next
    table it is drawn at. Refused while a table of the entry is playing: a table plays with
    the members it was drawn with."""
    with transaction.atomic():
        try:
            tournament_id = Entry.objects.filter(pk=entry_id).values_list("tournament_id", flat=True).first()
        except (TypeError, ValueError):
            tournament_id = None
        if tournament_id is None:
            raise NotFound(_("No such entry."))
        tournament = locked(tournament_id)
        entry = Entry.objects.get(pk=entry_id)
        own = by is not None and entry.user_id is not None and entry.user_id == by.pk
        if not own:
            require_role(by, tournament.club_id, DESK)
        if tournament.entry_type == Tournament.INDIVIDUAL:
            raise TournamentError(
                "substitution-individual", _("An individual entry has no members to change.")
            )
        if tournament.status == Tournament.FINISHED:
            raise TournamentError("tournament-finished", _("The tournament is over."))
        if entry.status not in PLAYING_STATUSES:
            raise TournamentError("entry-not-playing", _("This entry is not in play."))
        if TableSeat.objects.filter(entry=entry, table__status=Table.PLAYING, forfeited=False).exists():
            raise TournamentError(
                "substitution-table-playing",
                _("This entry's table is playing: change its members between rounds."),
                status=409,
            )
        current = list(entry.members.select_related("user"))
        leaving = next((m for m in current if m.name == str(out or "").strip()), None)
        if leaving is None:
            raise TournamentError("member-unknown", _("That player is not a member of this entry."))
        name, user = parse_member(incoming)
        others = [m for m in current if m.pk != leaving.pk]
        check_distinct([*((m.name, m.user) for m in others), (name, user)])
        check_free(tournament, [user], entry)
        if user is not None and any(m.user_id == user.pk for m in others):
            raise TournamentError("member-already-entered", _("That player is already in another entry."))
        was = logged_member(leaving.name, leaving.user)
        leaving.name, leaving.user = name, user
        leaving.save(update_fields=["name", "user"])
        # Members with an account by their player id: their names are labels outside the log.
        log.record(
            tournament,
            log.MEMBER_SUBSTITUTED,
            {
                "entry": entry.pk,
                "out": was,
                "in": logged_member(name, user),
                "members": [logged_member(m.name, m.user) for m in entry.members.all()],
            },
            log.actor_of(by),
        )
    return entry
