"""Disputes: filed by a party to a tournament table, pinned to a round, a turn or an event
version of its match; commented, paused and resumed by referees; closed by a ruling
(`rulings`) or withdrawn. Every step is an event of the tournament's log (its trail); the
`Dispute` row is what the referees' queue reads.

Who is a party: a player seated in the match, a member of an entry seated at the table, or
the club's scorekeeper (physical tables only). Who referees: the club's owners, organisers and
referees; site staff only when they hold one of those roles.

The appeal window: a table can be disputed while its match is live and, once it has
ended, until the tournament draws its next round (after the finished round's appeal
period, `services.appeals`); the tournament's last round stays open
for `Tournament.appeal_minutes` after the match ends. A round does not finish while one of
its tables has an open dispute (`tables.finish_round_if_done`), so nothing is drawn from a
result under appeal.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import live, matches
from tournaments.clubs.roles import has_role
from tournaments.errors import Forbidden, NotFound, TournamentError
from tournaments.models import Dispute, EntryMember, Membership, Round, Table, TableSeat, Tournament
from tournaments.seasons.referees import referees_tournament
from tournaments.services import log, tables
from tournaments.services.lifecycle import advance_tournament, locked

REFEREES = Membership.REFEREES
REASONS = tuple(code for code, _label in Dispute.REASON_CHOICES)
TEXT_LENGTH = 2000


# ---------------------------------------------------------------- who


def is_referee(user: Any, tournament: Tournament) -> bool:
    return has_role(user, tournament.club_id, REFEREES) or referees_tournament(user, tournament)


def referees_match(match_id: Any, user: Any) -> bool:
    """The match server's referee check (setting `CACHO_REFEREE_CHECK`): the user referees
    the club whose tournament plays this match at one of its tables."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    row = (
        Table.objects.filter(match_id=match_id)
        .values_list("round__tournament__club_id", "round__tournament_id")
        .first()
    )
    # a league's referees referee the tournaments its seasons count (docs/seasons.md)
    return row is not None and (has_role(user, row[0], REFEREES) or referees_tournament(user, row[1]))


def is_party(user: Any, table: Table) -> bool:
    """Seated in the table's match, a member of an entry at the table, or the club's
    scorekeeper (physical tables only)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if table.match_id is not None and user.pk in matches.seat_users(table.match_id):
        return True
    entries = TableSeat.objects.filter(table=table).values_list("entry_id", flat=True)
    if TableSeat.objects.filter(table=table, entry__user=user).exists():
        return True
    if EntryMember.objects.filter(entry_id__in=entries, user=user).exists():
        return True
    # The scorekeeper enters a physical table's match: an online table's is none of theirs.
    return table.physical and has_role(user, table.round.tournament.club_id, (Membership.SCOREKEEPER,))


def may_see(user: Any, dispute: Dispute) -> bool:
    return is_referee(user, dispute.tournament) or is_party(user, dispute.table)


def queue(user: Any, status: str | None = Dispute.OPEN) -> QuerySet[Dispute]:
    """The disputes of every club the user referees (open ones by default), oldest first."""
    disputes = Dispute.objects.select_related("tournament", "table__round__stage", "filed_by")
    clubs = Membership.objects.filter(user=user, role__in=REFEREES).values_list("club_id", flat=True)
    disputes = disputes.filter(tournament__club_id__in=list(clubs))
    if status:
        disputes = disputes.filter(status=status)
    return disputes.order_by("filed_at")


def of_match(match_id: Any, user: Any) -> list[Dispute]:
    """The disputes of a tournament table's match; none for a casual match (404 for no match)."""
    casual = _uuid_like(match_id) and not Table.objects.filter(match_id=match_id).exists()
    if casual and matches.match_exists(match_id):
        return []
    table = _table_of(match_id)
    if not (is_referee(user, table.round.tournament) or is_party(user, table)):
        raise Forbidden(_("Only the table's players and the club's referees see its disputes."))
    return list(
        Dispute.objects.filter(table=table).select_related("tournament", "filed_by").order_by("filed_at")
    )


def visible(dispute_id: Any, user: Any) -> Dispute:
    dispute = _dispute(dispute_id)
    if not may_see(user, dispute):
        raise Forbidden(_("Only the table's players and the club's referees see this dispute."))
    return dispute


# ---------------------------------------------------------------- filing


def window_closes_at(table: Table, ended_at: dt.datetime | None) -> dt.datetime | None:
    """When the table's appeal window closes, if a time does (the tournament's last round,
    its match over); None while it closes only when the next round is drawn."""
    tournament = table.round.tournament
    if ended_at is None or _later_round_exists(table.round) or tournament.status != Tournament.FINISHED:
        return None
    return ended_at + dt.timedelta(minutes=tournament.appeal_minutes)


def file_dispute(
    match_id: Any,
    by: Any,
    *,
    reason: str,
    text: str = "",
    round: int | None = None,
    turn: int | None = None,
    version: int | None = None,
    appeal_of: Dispute | None = None,
) -> Dispute:
    """File a dispute; `appeal_of`: the ruled dispute it appeals (a party appeals, a
    referee revises), filed within the same window."""
    table = _table_of(match_id)
    revising = appeal_of is not None and is_referee(by, table.round.tournament)
    if not is_party(by, table) and not revising:
        raise TournamentError(
            "dispute-not-at-table",
            _("Only a player at this table or its scorekeeper can file a dispute."),
            403,
        )
    if reason not in REASONS:
        raise TournamentError("dispute-reason-unknown", _("Choose one of the reasons offered."))
    text = (text or "").strip()
    if len(text) > TEXT_LENGTH:
        raise TournamentError("dispute-text-too-long", _("Say it in at most 2000 characters."))
    info = matches.match_info(table.match_id)
    _check_pin(info, round, turn, version)
    with transaction.atomic():
        tournament = locked(table.round.tournament_id)
        table = Table.objects.select_related("round__tournament", "round__stage").get(pk=table.pk)
        if _later_round_exists(table.round):
            raise TournamentError(
                "dispute-window-closed",
                _("The next round has been drawn: this table can no longer be disputed."),
                409,
            )
        closes = window_closes_at(table, info.finished_at)
        if closes is not None and timezone.now() > closes:
            raise TournamentError(
                "dispute-window-closed", _("The appeal window of this table has closed."), 409
            )
        dispute = Dispute.objects.create(
            tournament=tournament,
            table=table,
            match_id=table.match_id,
            filed_by=by,
            reason=reason,
            text=text,
            pinned_round=round,
            pinned_turn=turn,
            pinned_version=version,
            appeal_of=appeal_of,
        )
        filed: dict[str, Any] = {
            "dispute": dispute.pk,
            "round": table.round.number,
            "table": table.number,
            "match": str(table.match_id),
            "reason": reason,
            "text": text,
            "pinned": {"round": round, "turn": turn, "version": version},
        }
        if appeal_of is not None:
            filed["appeal_of"] = appeal_of.pk
        log.record(tournament, log.DISPUTE_FILED, filed, log.actor_of(by))
        announce(dispute)
    return dispute


def _check_pin(info: matches.MatchInfo, round: int | None, turn: int | None, version: int | None) -> None:
    pins = [p for p in (round, turn, version) if p is not None]
    if len(pins) > 1:
        raise TournamentError(
            "dispute-pin-invalid", _("Pin the dispute to one round, one turn or one event.")
        )
    for value in pins:
        if type(value) is not int:
            raise TournamentError("dispute-pin-invalid", _("A round, turn or event is a whole number."))
    if round is not None and not (info.rounds and 1 <= round <= info.rounds):
        raise TournamentError("dispute-round-unknown", _("This match has no such round."))
    if turn is not None and not (info.turns and 1 <= turn <= info.turns):
        raise TournamentError("dispute-turn-unknown", _("This match has no such turn."))
    if version is not None and not 1 <= version <= info.version:
        raise TournamentError("dispute-version-unknown", _("This match has no such event."))


# ---------------------------------------------------------------- the trail


def comment(dispute_id: Any, by: Any, text: str) -> Dispute:
    dispute = visible(dispute_id, by)
    text = (text or "").strip()
    if not text:
        raise TournamentError("comment-empty", _("Write something first."))
    if len(text) > TEXT_LENGTH:
        raise TournamentError("dispute-text-too-long", _("Say it in at most 2000 characters."))
    with transaction.atomic():
        tournament = locked(dispute.tournament_id)
        log.record(tournament, log.DISPUTE_COMMENTED, {"dispute": dispute.pk, "text": text}, log.actor_of(by))
        announce(dispute)
    return dispute


def pause(dispute_id: Any, by: Any, reason: str = "") -> Dispute:
    """Stop the table's clock while the referee looks (players see why)."""
    return _pause_or_resume(dispute_id, by, pausing=True, reason=(reason or "").strip())


def resume(dispute_id: Any, by: Any) -> Dispute:
    return _pause_or_resume(dispute_id, by, pausing=False, reason="")


def _pause_or_resume(dispute_id: Any, by: Any, *, pausing: bool, reason: str) -> Dispute:
    dispute = _dispute(dispute_id)
    require_referee(by, dispute.tournament)
    with transaction.atomic():
        tournament = locked(dispute.tournament_id)
        dispute = Dispute.objects.select_for_update().get(pk=dispute.pk)
        _require_open(dispute)
        if dispute.paused == pausing:
            raise TournamentError(
                "dispute-already-paused" if pausing else "dispute-not-paused",
                _("The table is paused already.") if pausing else _("The table is not paused."),
                409,
            )
        count = tournament.events.filter(payload__dispute=dispute.pk).count()
        text = reason or _("A referee is reviewing a dispute.")
        matches.rule_match(
            dispute.match_id,
            {"kind": "pause" if pausing else "resume"},
            referee=_referee_name(by),
            reason=text if pausing else "",
            command_id=f"dispute-{dispute.pk}-{count}",
        )
        dispute.paused = pausing
        dispute.save(update_fields=["paused"])
        log.record(
            tournament,
            log.TABLE_PAUSED if pausing else log.TABLE_RESUMED,
            {"dispute": dispute.pk, "match": str(dispute.match_id), "reason": reason},
            log.actor_of(by),
        )
        announce(dispute)
    return dispute


def withdraw(dispute_id: Any, by: Any) -> Dispute:
    """The filer (or a referee) takes the dispute back; the round goes on."""
    dispute = _dispute(dispute_id)
    if not (by is not None and dispute.filed_by_id == by.pk) and not is_referee(by, dispute.tournament):
        raise Forbidden(_("Only who filed the dispute or a referee can withdraw it."))
    with transaction.atomic():
        tournament = locked(dispute.tournament_id)
        dispute = Dispute.objects.select_for_update().get(pk=dispute.pk)
        _require_open(dispute)
        if dispute.paused:
            matches.rule_match(
                dispute.match_id,
                {"kind": "resume"},
                referee=_referee_name(by),
                reason="",
                command_id=f"dispute-{dispute.pk}-withdrawn",
            )
        dispute.status, dispute.paused, dispute.closed_at = Dispute.WITHDRAWN, False, timezone.now()
        dispute.save(update_fields=["status", "paused", "closed_at"])
        log.record(tournament, log.DISPUTE_WITHDRAWN, {"dispute": dispute.pk}, log.actor_of(by))
        announce(dispute)
        release_round(tournament, dispute.table.round)
    return dispute


def release_round(tournament: Tournament, rnd: Round) -> None:
    """A dispute has closed: the round finishes if that was all it waited for, and the next
    one is drawn after commit."""
    if tables.finish_round_if_done(tournament, rnd):
        tables.standings_after(tournament, rnd, True)
    rnd.refresh_from_db(fields=["status"])
    if rnd.status == Round.FINISHED:  # finished now, or earlier and held by this dispute
        transaction.on_commit(lambda: advance_tournament.delay(tournament.pk))


def announce(dispute: Dispute) -> None:
    """After commit, the club's referees and the table's parties hear that it changed."""
    table = dispute.table
    users = matches.seat_users(dispute.match_id)
    entries = TableSeat.objects.filter(table=table)
    users |= {u for u in entries.values_list("entry__user_id", flat=True) if u is not None}
    members = EntryMember.objects.filter(entry_id__in=entries.values_list("entry_id", flat=True))
    users |= {u for u in members.values_list("user_id", flat=True) if u is not None}
    club_id, dispute_id, status = dispute.tournament.club_id, dispute.pk, dispute.status
    transaction.on_commit(lambda: live.announce(club_id, users, dispute_id, status))


def trail(dispute: Dispute) -> list[dict[str, Any]]:
    """The dispute's events in the tournament log, oldest first, with their users' names."""
    events = list(dispute.tournament.events.filter(payload__dispute=dispute.pk).order_by("version"))
    return [{"event": e, "type": e.type, "at": e.recorded_at, "actor": e.actor, **e.payload} for e in events]


def visible_to_referee(dispute_id: Any, user: Any) -> Dispute:
    """The dispute, for one of its club's referees (403 `ruling-not-referee` for anyone else)."""
    dispute = _dispute(dispute_id)
    require_referee(user, dispute.tournament)
    return dispute


def require_referee(user: Any, tournament: Tournament) -> None:
    if not is_referee(user, tournament):
        raise TournamentError(
            "ruling-not-referee", _("Only the club's referees and organisers can do this."), 403
        )


def _require_open(dispute: Dispute) -> None:
    if dispute.status != Dispute.OPEN:
        raise TournamentError("dispute-closed", _("This dispute is closed."), 409)


def _referee_name(user: Any) -> str:
    return str(user.get_username()) if user is not None else "system"


def _table_of(match_id: Any) -> Table:
    table = (
        Table.objects.filter(match_id=match_id).select_related("round__tournament", "round__stage").first()
        if _uuid_like(match_id)
        else None
    )
    if table is None:
        raise TournamentError(
            "dispute-not-tournament", _("This match is not played at a tournament table."), 404
        )
    return table


def _dispute(dispute_id: Any) -> Dispute:
    try:
        return Dispute.objects.select_related("tournament", "table__round__stage", "filed_by").get(
            pk=int(dispute_id)
        )
    except (Dispute.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFound(_("No such dispute.")) from exc


def _later_round_exists(rnd: Round) -> bool:
    return Round.objects.filter(tournament_id=rnd.tournament_id, number__gt=rnd.number).exists()


def _uuid_like(value: Any) -> bool:
    try:
        uuid.UUID(str(value))
    except ValueError:
        return False
    return True


__all__ = [
    "REASONS",
    "REFEREES",
    "announce",
    "comment",
    "file_dispute",
    "is_party",
    "is_referee",
    "of_match",
    "pause",
    "queue",
    "referees_match",
    "release_round",
    "require_referee",
    "resume",
    "trail",
    "visible",
    "visible_to_referee",
    "window_closes_at",
    "withdraw",
]
