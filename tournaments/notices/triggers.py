"""What makes notices: a round drawn ("your next table is ready"), a ruling ("your dispute
was ruled", "a ruling changed your result"), a tournament about to start (the sweep). Each
is a Celery task taking ids, queued after the commit of what it tells; the notices' keys
make a repeated task add nothing."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from celery import shared_task
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from tournaments.models import Dispute, Entry, EntryMember, Round, Table, TableSeat, Tournament
from tournaments.notices import kinds
from tournaments.notices.delivery import Tidings, notify, notify_all

STARTS_SOON = dt.timedelta(minutes=15)


def _users_of(entry_ids: Iterable[int]) -> dict[int, set[int]]:
    """Each entry's players with an account: its own user and its members'."""
    ids = set(entry_ids)
    users: dict[int, set[int]] = {e: set() for e in ids}
    for entry_id, user_id in Entry.objects.filter(pk__in=ids, user__isnull=False).values_list(
        "pk", "user_id"
    ):
        users[entry_id].add(user_id)
    for entry_id, user_id in EntryMember.objects.filter(entry_id__in=ids, user__isnull=False).values_list(
        "entry_id", "user_id"
    ):
        users[entry_id].add(user_id)
    return users


def round_drawn_after_commit(round_id: int) -> None:
    """Queue the round's "table ready" notices once the caller's transaction commits."""
    transaction.on_commit(lambda: notify_round_drawn.delay(round_id))


@shared_task(name="tournaments.notify_round_drawn", ignore_result=True)
def notify_round_drawn(round_id: int) -> int:
    """The "your next table is ready" notice to each player seated at a table of the round that plays
    online (a walkover or a physical table has nothing to open). How many notices."""
    rnd = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if rnd is None:
        return 0
    tables = list(
        Table.objects.filter(round=rnd, status=Table.PLAYING, match_id__isnull=False, physical=False)
    )
    # The seated entries of every table and their accounts, read once for the round (three
    # queries) rather than per table: a round of a large field has dozens of tables.
    seated: dict[int, list[int]] = {table.pk: [] for table in tables}
    seats = TableSeat.objects.filter(table__in=tables, match_seat__isnull=False, forfeited=False)
    for table_id, entry_id in seats.values_list("table_id", "entry_id"):
        seated[table_id].append(entry_id)
    users_of = _users_of(e for entries in seated.values() for e in entries)
    tidings = [
        Tidings(
            {user for entry in seated[table.pk] for user in users_of[entry]},
            f"table-ready:{table.pk}",
            {
                "tournament": rnd.tournament_id,
                "tournament_name": rnd.tournament.name,
                "round": rnd.number,
                "table": table.number,
            },
            reverse("frontend:match", args=[str(table.match_id)]),
        )
        for table in tables
    ]
    return len(notify_all(kinds.TABLE_READY, tidings))


def ruled_after_commit(dispute_id: int, effect: str) -> None:
    transaction.on_commit(lambda: notify_ruled.delay(dispute_id, effect))


@shared_task(name="tournaments.notify_ruled", ignore_result=True)
def notify_ruled(dispute_id: int, effect: str) -> int:
    """The "your dispute was ruled" notice to who filed it; "a ruling changed your result" to every
    player of the table when the ruling corrected or reopened it."""
    dispute = Dispute.objects.select_related("tournament", "table__round").filter(pk=dispute_id).first()
    if dispute is None or dispute.status != Dispute.RULED:
        return 0
    tournament = dispute.tournament
    params = {
        "tournament": tournament.pk,
        "tournament_name": tournament.name,
        "round": dispute.table.round.number,
        "table": dispute.table.number,
    }
    made = 0
    if dispute.filed_by_id is not None:
        link = reverse("frontend:dispute", args=[dispute.pk])
        made += len(
            notify([dispute.filed_by_id], kinds.DISPUTE_RULED, f"dispute-ruled:{dispute.pk}", params, link)
        )
    if effect in ("corrected", "reopened"):
        entries = TableSeat.objects.filter(table=dispute.table).values_list("entry_id", flat=True)
        users = set().union(*_users_of(entries).values())
        link = reverse("frontend:tournament", args=[tournament.pk])
        key = f"result-changed:{dispute.pk}"
        made += len(notify(users, kinds.RESULT_CHANGED, key, params, link))
    return made


def notify_starting(now: dt.datetime | None = None) -> int:
    """The "your tournament starts in 15 minutes" notice to the players registered for a tournament
    whose check-in closes (and play starts) within 15 minutes. Run by the tournaments'
    sweep (every few seconds, in every mode); once per tournament and player."""
    now = now or timezone.now()
    soon = Tournament.objects.filter(
        status=Tournament.REGISTRATION, checkin_deadline__gt=now, checkin_deadline__lte=now + STARTS_SOON
    )
    made = 0
    for tournament in soon:
        assert tournament.checkin_deadline is not None
        entries = tournament.entries.filter(status__in=(Entry.REGISTERED, Entry.CHECKED_IN))
        users = set().union(*_users_of(entries.values_list("pk", flat=True)).values())
        params: dict[str, Any] = {
            "tournament": tournament.pk,
            "tournament_name": tournament.name,
            "time": tournament.checkin_deadline.astimezone(dt.UTC).strftime("%H:%M"),
        }
        link = reverse("frontend:tournament", args=[tournament.pk])
        made += len(notify(users, kinds.STARTS_SOON, f"starts-soon:{tournament.pk}", params, link))
    return made
