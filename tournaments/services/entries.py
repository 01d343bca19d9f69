"""Entries: registration, check-in, withdrawal and reinstatement, names, seeding ratings,
and the forfeit of one table (a no-show). Every change is logged in the tournament's log.

An entry is known by its id everywhere (results, standings, exports); its name is a label
that may change at any time. A late withdrawal forfeits what is left: the entry leaves its
live table for good and is drawn no more; reinstated, it plays on from the next round.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import matches
from tournaments.clubs.roles import DESK, has_role, require_role
from tournaments.competition import stages
from tournaments.errors import Forbidden, NotFound, TournamentError
from tournaments.models import Entry, EntryMember, Membership, Round, Stage, Table, TableSeat, Tournament
from tournaments.services import log, team_members
from tournaments.services.lifecycle import PLAYING_STATUSES, locked
from tournaments.services.results import record_table_result
from tournaments.services.stage_data import ALALAY_EVENT

NAME_LENGTH = 64
# Formats in which a round drawn without an entry puts it out for good: reinstating it
# afterwards would not bring it back into play.
ELIMINATING = (
    stages.SINGLE_ELIMINATION,
    stages.DOUBLE_ELIMINATION,
    stages.TABLE_ELIMINATION,
    stages.FINAL_TABLE,
)


def _entry_locked(entry_id: int) -> tuple[Tournament, Entry]:
    try:
        tournament_id = Entry.objects.filter(pk=entry_id).values_list("tournament_id", flat=True).first()
    except (TypeError, ValueError):
        tournament_id = None
    if tournament_id is None:
        raise NotFound(_("No such entry."))
    tournament = locked(tournament_id)
    return tournament, Entry.objects.get(pk=entry_id)


def _own_or(by: Any, tournament: Tournament, entry: Entry, roles: Sequence[str]) -> None:
    if by is not None and entry.user_id is not None and entry.user_id == by.pk:
        return
    require_role(by, tournament.club_id, roles)


def _clean_name(tournament: Tournament, name: str, entry: Entry | None = None) -> str:
    name = (name or "").strip()
    if not name or len(name) > NAME_LENGTH:
        raise TournamentError("entry-name-invalid", _("An entry has a name of 1 to 64 characters."))
    taken = Entry.objects.filter(tournament=tournament, name=name)
    if entry is not None:
        taken = taken.exclude(pk=entry.pk)
    if taken.exists():
        raise TournamentError("entry-name-taken", _("That name is taken in this tournament."))
    return name


def _check_rating(rating: Any) -> float | None:
    if rating is None:
        return None
    if isinstance(rating, bool) or not isinstance(rating, int | float) or not -1e6 <= rating <= 1e6:
        raise TournamentError("rating-invalid", _("A rating is a number."))
    return float(rating)


def register(
    tournament_id: int,
    by: Any,
    *,
    name: str,
    user: Any = None,
    members: Sequence[Any] = (),
    rating: float | None = None,
    is_bot: bool = False,
) -> Entry:
    """Register an entry: players register themselves; organisers register anyone and alone
    set seeding ratings."""
    with transaction.atomic():
        tournament = locked(tournament_id)
        manager = has_role(by, tournament.club_id, Membership.MANAGERS)
        if not manager and (by is None or user is None or by.pk != user.pk):
            raise Forbidden(_("Players register themselves; organisers register others."))
        if rating is not None and not manager:
            raise TournamentError(
                "rating-organisers-only", _("Only the organisers set seeding ratings."), status=403
            )
        rating = _check_rating(rating)
        late = tournament.status == Tournament.RUNNING and manager
        if tournament.status != Tournament.REGISTRATION and not late:
            raise TournamentError("registration-closed", _("Registration is closed."))
        stage = late_entry_stage(tournament) if late else None
        name = _clean_name(tournament, name)
        if user is not None and Entry.objects.filter(tournament=tournament, user=user).exists():
            raise TournamentError("already-registered", _("You are already registered."))
        seated = team_members.clean_members(tournament, members, user)
        entry = Entry.objects.create(
            tournament=tournament, name=name, user=user, rating=rating, is_bot=is_bot
        )
        EntryMember.objects.bulk_create(EntryMember(entry=entry, name=m, user=u) for m, u in seated)
        payload: dict[str, Any] = {
            "entry": entry.pk,
            # A member with an account by its player id, as the entry's own account below.
            "members": [team_members.logged_member(m, u) for m, u in seated],
            "rating": rating,
            "bot": is_bot,
        }
        if user is not None:
            # An account's entry is named by its player id: its name is a label outside the
            # log (`Entry.name`), so deleting the account leaves nothing of it in the chain.
            payload["player"] = matches.player_id(user)
        else:
            payload["name"] = name
            if not is_bot:
                payload["guest"] = True
        if stage is not None:
            payload.update(_join_late(tournament, stage, entry))
        log.record(tournament, log.REGISTERED, payload, log.actor_of(by))
    return entry


# Formats a late entry can join: they pair each round afresh from the standings, where the
# newcomer starts with no points. A fixed schedule (round robin), a bracket or an
# elimination by tables has no place for someone who was not drawn at the start.
LATE_ENTRY_FORMATS = (stages.SWISS, ALALAY_EVENT)


def late_entry_stage(tournament: Tournament) -> Stage:
    """The stage a late entry joins (the first stage, while it still draws rounds), or
    `late-entry-format` / `late-entry-closed`."""
    stage = tournament.stages.filter(status=Stage.RUNNING).first()
    if stage is None or stage.number != 1 or stage.format not in LATE_ENTRY_FORMATS:
        raise TournamentError(
            "late-entry-format",
            _(
                "This tournament's format takes no entries once it has started "
                "(only a first Swiss or Alalay stage does)."
            ),
        )
    rounds = stage.rounds.count()
    params = stage.params or {}
    last_round = (
        params.get("rounds", 3) if stage.format == stages.SWISS else params.get("qualifying_rounds", 3)
    )
    if rounds >= last_round:
        raise TournamentError(
            "late-entry-closed", _("No round of this stage is left to draw: a late entry would never play.")
        )
    return stage


def _join_late(tournament: Tournament, stage: Stage, entry: Entry) -> dict[str, Any]:
    """The new entry joins the running stage: it is drawn from the next round, with no
    points for the rounds it missed."""
    stage.entrants = [*stage.entrants, str(entry.pk)]
    stage.save(update_fields=["entrants"])
    seed = (
        tournament.entries.exclude(seed=None).order_by("-seed").values_list("seed", flat=True).first() or 0
    ) + 1
    entry.status, entry.seed = Entry.ACTIVE, seed
    entry.save(update_fields=["status", "seed"])
    drawn = stage.rounds.count()
    return {"late": True, "stage": stage.number, "from_stage_round": drawn + 1, "seed": seed}


def check_in(entry_id: int, by: Any, now: dt.datetime | None = None) -> Entry:
    now = now or timezone.now()
    with transaction.atomic():
        tournament, entry = _entry_locked(entry_id)
        _own_or(by, tournament, entry, DESK)
        if tournament.status != Tournament.REGISTRATION:
            raise TournamentError("registration-closed", _("Registration is closed."))
        if tournament.checkin_deadline is None:
            raise TournamentError("checkin-not-required", _("This tournament has no check-in."))
        if now > tournament.checkin_deadline:
            raise TournamentError("checkin-closed", _("The check-in deadline has passed."))
        if entry.status == Entry.CHECKED_IN:
            return entry
        if entry.status != Entry.REGISTERED:
            raise TournamentError("entry-not-registered", _("This entry is not registered."))
        entry.status, entry.checked_in_at = Entry.CHECKED_IN, now
        entry.save(update_fields=["status", "checked_in_at"])
        log.record(tournament, log.CHECKED_IN, {"entry": entry.pk}, log.actor_of(by))
    return entry


def _leave_table(seat: TableSeat, command_id: str) -> bool:
    """The entry at `seat` leaves its table's match for good and forfeits the seat (placed
    last at the table, `tables.result_from_match`); False when there is nothing to leave
    (no match, the seat forfeited already, the match over)."""
    if seat.forfeited or seat.table.match_id is None or seat.match_seat is None:
        return False
    if not matches.forfeit_seat(seat.table.match_id, seat.match_seat, command_id):
        return False
    seat.forfeited = True
    seat.save(update_fields=["forfeited"])
    return True


def _others_in_play(seat: TableSeat) -> bool:
    """Whether another seat of the table still plays in its match (not forfeited)."""
    others = seat.table.seats.exclude(pk=seat.pk)
    return others.filter(forfeited=False, match_seat__isnull=False).exists()


def withdraw(entry_id: int, by: Any) -> Entry:
    """Withdraw an entry. During the tournament (a late withdrawal) it forfeits what is left:
    it leaves its live table for good and is drawn no more."""
    with transaction.atomic():
        tournament, entry = _entry_locked(entry_id)
        _own_or(by, tournament, entry, DESK)
        if entry.status not in PLAYING_STATUSES:
            raise TournamentError("entry-not-playing", _("This entry is not in play."))
        if tournament.status == Tournament.FINISHED:
            raise TournamentError("tournament-finished", _("The tournament is over."))
        # A table whose match ended before the withdrawal keeps the result played there,
        # recorded first: the log says the entry withdrew after it.
        tournament = record_ended_tables(tournament, entry)
        after, forfeited = _take_out(tournament, entry, Entry.WITHDRAWN, "withdraw")
        log.record(
            tournament,
            log.WITHDRAWN,
            {"entry": entry.pk, "after_round": after, "forfeited_tables": forfeited},
            log.actor_of(by),
        )
    return entry


def _take_out(tournament: Tournament, entry: Entry, status: str, why: str) -> tuple[int, list[int]]:
    """The entry is out of play from now (`status`: withdrawn or disqualified): it leaves its
    live tables for good, each seat a forfeit. Returns the last round it played and the
    tables it left. The caller records its ended tables first (`record_ended_tables`)."""
    last = tournament.rounds.order_by("-number").first()
    after = last.number if last else 0
    if last is not None and last.status == Round.PLAYING:
        after = last.number - 1
    entry.status, entry.withdrawn_after_round = status, after
    entry.save(update_fields=["status", "withdrawn_after_round"])
    forfeited = []
    in_play = TableSeat.objects.filter(entry=entry, table__status=Table.PLAYING).select_related("table")
    for seat in in_play:
        if _leave_table(seat, f"{why}-{entry.pk}-{seat.table_id}"):
            forfeited.append(seat.table_id)
        elif not seat.forfeited and seat.match_seat is not None:
            # It had left that match already: being taken out still makes the seat a forfeit.
            seat.forfeited = True
            seat.save(update_fields=["forfeited"])
            forfeited.append(seat.table_id)
    return after, forfeited


def record_ended_tables(tournament: Tournament, entry: Entry) -> Tournament:
    """Record the entry's tables whose match has ended (before it is taken out of play)."""
    for table_id in TableSeat.objects.filter(
        entry=entry, table__status=Table.PLAYING, table__match_id__isnull=False
    ).values_list("table_id", flat=True):
        if record_table_result(table_id):
            tournament = locked(tournament.pk)  # the log's head moved
    return tournament


def reinstate(entry_id: int, by: Any) -> Entry:
    """Bring a withdrawn entry back: before the start it is registered again; during the
    tournament it plays on from the next round, as long as its stage still has a place for
    it (not in an elimination that has drawn a round without it)."""
    with transaction.atomic():
        tournament, entry = _entry_locked(entry_id)
        require_role(by, tournament.club_id, DESK)
        lifted = entry.status == Entry.DISQUALIFIED
        if lifted and not has_role(by, tournament.club_id, Membership.MANAGERS):
            raise TournamentError(
                "disqualified-organisers-only",
                _("Only the organisers lift a disqualification."),
                status=403,
            )
        if entry.status not in (Entry.WITHDRAWN, Entry.DISQUALIFIED):
            raise TournamentError("entry-not-withdrawn", _("This entry has not withdrawn."))
        if tournament.status == Tournament.FINISHED:
            raise TournamentError("tournament-finished", _("The tournament is over."))
        if tournament.status == Tournament.RUNNING:
            stage = tournament.stages.filter(status=Stage.RUNNING).first()
            if stage is None or str(entry.pk) not in stage.entrants:
                raise TournamentError(
                    "entry-out-of-stage", _("This entry does not play in the current stage.")
                )
            drawn_since = tournament.rounds.filter(number__gt=entry.withdrawn_after_round or 0).exists()
            if stage.format in ELIMINATING and drawn_since:
                raise TournamentError(
                    "reinstate-too-late", _("A round was drawn without this entry: it is out of this stage.")
                )
            entry.status = Entry.ACTIVE
        else:
            entry.status = Entry.CHECKED_IN if entry.checked_in_at else Entry.REGISTERED
        entry.withdrawn_after_round = None
        entry.save(update_fields=["status", "withdrawn_after_round"])
        payload: dict[str, Any] = {"entry": entry.pk, "status": entry.status}
        if lifted:
            payload["disqualification_lifted"] = True
        log.record(tournament, log.REINSTATED, payload, log.actor_of(by))
    return entry


def rename_entry(entry_id: int, by: Any, name: str) -> Entry:
    """A new name (a label: results, standings and exports know the entry by its id)."""
    with transaction.atomic():
        tournament, entry = _entry_locked(entry_id)
        _own_or(by, tournament, entry, Membership.MANAGERS)
        name = _clean_name(tournament, name, entry)
        if name == entry.name:
            return entry
        previous, entry.name = entry.name, name
        entry.save(update_fields=["name"])
        renamed: dict[str, Any] = {"entry": entry.pk}
        if entry.user_id is None:
            renamed.update({"from": previous, "to": name})
        log.record(tournament, log.ENTRY_RENAMED, renamed, log.actor_of(by))
    return entry


def set_rating(entry_id: int, by: Any, rating: float | None) -> Entry:
    """The seeding rating, set by the organisers until the tournament starts."""
    with transaction.atomic():
        tournament, entry = _entry_locked(entry_id)
        require_role(by, tournament.club_id, Membership.MANAGERS)
        if tournament.status != Tournament.REGISTRATION:
            raise TournamentError(
                "registration-closed", _("Seeding ratings are fixed once the tournament starts.")
            )
        entry.rating = _check_rating(rating)
        entry.save(update_fields=["rating"])
        log.record(tournament, log.RATING_SET, {"entry": entry.pk, "rating": entry.rating}, log.actor_of(by))
    return entry


def forfeit_table(table_id: int, entry_id: int, by: Any) -> Table:
    """The entry forfeits its seat at a table in play (it did not show up): it leaves that
    match, placed last, and plays on in the next rounds."""
    with transaction.atomic():
        tournament, entry = _entry_locked(entry_id)
        require_role(by, tournament.club_id, DESK)
        seat = (
            TableSeat.objects.filter(table_id=table_id, entry=entry, table__round__tournament=tournament)
            .select_related("table")
            .first()
        )
        if seat is None:
            raise NotFound(_("This entry has no seat at that table."))
        if seat.table.status != Table.PLAYING:
            raise TournamentError("table-finished", _("That table has finished."))
        if not seat.forfeited and not _others_in_play(seat):
            # The last one at a table wins it: a forfeit there would leave a table nobody won.
            raise TournamentError(
                "last-seat",
                _(
                    "This entry is the last one still playing at that table: it wins the table, "
                    "it cannot forfeit it."
                ),
            )
        if not _leave_table(seat, f"forfeit-{entry.pk}-{table_id}"):
            raise TournamentError("seat-not-in-play", _("This seat is not in play any more."))
        log.record(tournament, log.SEAT_FORFEITED, {"entry": entry.pk, "table": table_id}, log.actor_of(by))
    return seat.table
