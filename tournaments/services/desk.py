"""The desk of a club evening: a pasted list of names registered at once, an entry removed
before the start, a guest entry claimed by an account, the manual seeding order, a check-in
undone, check-in closed before its deadline, a disqualification. Each change is logged in the
tournament's log.

A disqualified entry is out of play from the ruling on: it leaves its live tables (each
seat a forfeit, placed last there), is drawn no more, goes on to no later stage, and the
final ranking lists it after every other entry (disqualified entries share the last
place). The results of the tables it finished stand, so its opponents keep their places.
Only an organiser lifts a disqualification (`entries.reinstate`): it then plays on from
the next round, as a reinstated withdrawal does.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cacho.edge.inputs import plain_digits
from tournaments import matches
from tournaments.clubs.roles import DESK, require_role
from tournaments.competition import seeding
from tournaments.errors import TournamentError
from tournaments.models import Entry, Membership, Tournament
from tournaments.services import log, team_members
from tournaments.services.entries import (
    NAME_LENGTH,
    _entry_locked,
    _take_out,
    late_entry_stage,
    record_ended_tables,
    register,
)
from tournaments.services.lifecycle import PLAYING_STATUSES, close_check_in_locked, locked
from tournaments.services.usernames import user_by_username

MAX_LINES = 500
REASON_LENGTH = 500
SPACES = re.compile(r"\s+")


@dataclass
class Refusal:
    line: int  # from 1, as pasted
    name: str
    code: str
    message: str


@dataclass
class BulkResult:
    registered: list[Entry] = field(default_factory=list)
    refused: list[Refusal] = field(default_factory=list)
    blank: int = 0


def split_lines(text: str | Sequence[str]) -> list[str]:
    return text.splitlines() if isinstance(text, str) else [str(line) for line in text]


def register_many(tournament_id: int, by: Any, lines: str | Sequence[str]) -> BulkResult:
    """Register one guest entry per pasted line (organisers). Blank lines are skipped; a name
    given twice in the paste, taken already or invalid is refused on its own line, and the
    others are registered. Once the tournament runs, each is a late entry (where allowed)."""
    rows = split_lines(lines)
    if len(rows) > MAX_LINES:
        raise TournamentError("bulk-too-long", _("Paste at most 500 names at a time."))
    result = BulkResult()
    with transaction.atomic():
        tournament = locked(tournament_id)
        require_role(by, tournament.club_id, Membership.MANAGERS)
        if tournament.status == Tournament.RUNNING:
            late_entry_stage(tournament)
        elif tournament.status != Tournament.REGISTRATION:
            raise TournamentError("registration-closed", _("Registration is closed."))
        seen: dict[str, int] = {}
        for number, raw in enumerate(rows, start=1):
            name = SPACES.sub(" ", raw).strip()
            if not name:
                result.blank += 1
                continue
            key = name.casefold()
            if key in seen:
                message = _("Given twice in this list (line %(n)s).") % {"n": seen[key]}
                result.refused.append(Refusal(number, name, "entry-name-duplicate", message))
                continue
            seen[key] = number
            if len(name) > NAME_LENGTH:
                message = _("An entry has a name of 1 to 64 characters.")
                result.refused.append(Refusal(number, name, "entry-name-invalid", message))
                continue
            try:
                with transaction.atomic():
                    result.registered.append(register(tournament.pk, by, name=name))
            except TournamentError as exc:
                result.refused.append(Refusal(number, name, exc.code, exc.message))
    return result


def remove_entry(entry_id: int, by: Any) -> None:
    """Remove an entry before the start (organisers), as if it had never registered."""
    with transaction.atomic():
        tournament, entry = _entry_locked(entry_id)
        require_role(by, tournament.club_id, Membership.MANAGERS)
        if tournament.status not in (Tournament.DRAFT, Tournament.REGISTRATION):
            raise TournamentError(
                "entry-remove-too-late",
                _("The tournament has started: withdraw or disqualify the entry instead."),
            )
        payload = {"entry": entry.pk, "name": entry.name}
        entry.delete()
        log.record(tournament, log.ENTRY_REMOVED, payload, log.actor_of(by))


def disqualify(entry_id: int, by: Any, reason: str) -> Entry:
    """Disqualify an entry in play or withdrawn (organisers, referees), with its reason."""
    reason = str(reason or "").strip()
    if not reason or len(reason) > REASON_LENGTH:
        raise TournamentError(
            "reason-missing", _("A disqualification gives its reason (up to 500 characters).")
        )
    with transaction.atomic():
        tournament, entry = _entry_locked(entry_id)
        require_role(by, tournament.club_id, DESK)
        if entry.status == Entry.DISQUALIFIED:
            raise TournamentError("entry-disqualified", _("This entry is disqualified already."))
        if entry.status not in (*PLAYING_STATUSES, Entry.WITHDRAWN):
            raise TournamentError("entry-not-playing", _("This entry is not in play."))
        if tournament.status == Tournament.FINISHED:
            raise TournamentError("tournament-finished", _("The tournament is over."))
        previous = entry.status
        if previous == Entry.WITHDRAWN:
            entry.status = Entry.DISQUALIFIED
            entry.save(update_fields=["status"])
            after, forfeited = entry.withdrawn_after_round or 0, []
        else:
            tournament = record_ended_tables(tournament, entry)
            after, forfeited = _take_out(tournament, entry, Entry.DISQUALIFIED, "disqualify")
        log.record(
            tournament,
            log.DISQUALIFIED,
            {
                "entry": entry.pk,
                "reason": reason,
                "previous_status": previous,
                "after_round": after,
                "forfeited_tables": forfeited,
            },
            log.actor_of(by),
        )
    return entry


def claim_entry(entry_id: int, by: Any, username: str) -> Entry:
    """Link a guest entry to the account named `username` (organisers): its next tables seat
    that account; its results are the entry's, kept by id, so nothing else changes."""
    with transaction.atomic():
        tournament, entry = _entry_locked(entry_id)
        require_role(by, tournament.club_id, Membership.MANAGERS)
        user = user_by_username(username)
        if entry.is_bot:
            raise TournamentError("entry-is-bot", _("A bot's entry cannot be claimed."))
        if entry.user_id is not None:
            raise TournamentError("entry-claimed", _("This entry belongs to an account already."))
        if Entry.objects.filter(tournament=tournament, user=user).exists():
            raise TournamentError(
                "already-registered", _("That account has an entry in this tournament already.")
            )
        team_members.check_free(tournament, [user], entry)  # a member of another pair or team
        entry.user = user
        entry.save(update_fields=["user"])
        log.record(
            tournament,
            log.ENTRY_CLAIMED,
            {"entry": entry.pk, "player": matches.player_id(user)},  # never the account's name
            log.actor_of(by),
        )
    return entry


def set_seeds(tournament_id: int, by: Any, order: Sequence[Any]) -> list[int]:
    """The manual seeding order, top seed first (organisers, before the start): every entry
    still registered exactly once. The start seeds by it."""
    with transaction.atomic():
        tournament = locked(tournament_id)
        require_role(by, tournament.club_id, Membership.MANAGERS)
        if tournament.status != Tournament.REGISTRATION:
            raise TournamentError("registration-closed", _("Seeds are fixed once the tournament starts."))
        if tournament.seeding != seeding.MANUAL:
            raise TournamentError("seeding-not-manual", _("This tournament is not seeded by hand."))
        playing = set(tournament.entries.filter(status__in=PLAYING_STATUSES).values_list("pk", flat=True))
        ids = [int(x) if plain_digits(x) else -1 for x in order]
        if len(ids) != len(set(ids)) or set(ids) != playing:
            raise TournamentError(
                "seeds-mismatch", _("List every registered entry exactly once, top seed first.")
            )
        tournament.entries.exclude(pk__in=ids).update(seed=None)
        for position, entry_id in enumerate(ids, start=1):
            Entry.objects.filter(pk=entry_id).update(seed=position)
        log.record(tournament, log.SEEDS_SET, {"order": ids}, log.actor_of(by))
    return ids


def undo_check_in(entry_id: int, by: Any) -> Entry:
    """A check-in made by mistake, undone at the desk (organisers, referees) before the start."""
    with transaction.atomic():
        tournament, entry = _entry_locked(entry_id)
        require_role(by, tournament.club_id, DESK)
        if tournament.status != Tournament.REGISTRATION:
            raise TournamentError("registration-closed", _("Registration is closed."))
        if entry.status != Entry.CHECKED_IN:
            raise TournamentError("entry-not-checked-in", _("This entry has not checked in."))
        entry.status, entry.checked_in_at = Entry.REGISTERED, None
        entry.save(update_fields=["status", "checked_in_at"])
        log.record(tournament, log.CHECK_IN_UNDONE, {"entry": entry.pk}, log.actor_of(by))
    return entry


def close_check_in(tournament_id: int, by: Any, now: dt.datetime | None = None) -> Tournament:
    """Close check-in now, before its deadline (organisers): the director need not wait for
    the clock to start the tournament. Those not checked in are dropped at the start, as
    at the deadline; until the start, setting a new deadline opens check-in again."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked(tournament_id)
        require_role(by, tournament.club_id, Membership.MANAGERS)
        if tournament.status != Tournament.REGISTRATION:
            raise TournamentError("registration-closed", _("Registration is closed."))
        if tournament.checkin_deadline is None:
            raise TournamentError("checkin-not-required", _("This tournament has no check-in."))
        if now > tournament.checkin_deadline:
            raise TournamentError("checkin-closed", _("Check-in is closed already."))
        close_check_in_locked(tournament, by, now)
    return tournament
