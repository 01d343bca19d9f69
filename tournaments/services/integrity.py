"""Who sees a club's integrity signals: its referees (owners, organisers and referees, as
for the dispute queue). The signals are computed on each look from the club's finished
matches; they are hints for the queue, never a penalty and never stored."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from tournaments import matches
from tournaments.clubs.roles import has_role
from tournaments.errors import NotFound, TournamentError
from tournaments.integrity import reader, signals
from tournaments.models import Club, Dispute, Membership


def club_signals(club_id: Any, user: Any) -> tuple[Club, list[signals.Signal], int]:
    """The club, its signals (strongest first) and how many rounds they were computed from."""
    club = _club(club_id)
    if not has_role(user, club.pk, Membership.REFEREES):
        raise TournamentError(
            "signals-not-referee",
            _("Only the club's referees and organisers see its integrity signals."),
            403,
        )
    rounds = reader.club_rounds(club.pk)
    return club, signals.compute(rounds), len(rounds)


def dispute_signals(dispute: Dispute, user: Any) -> tuple[list[str], list[signals.Signal], int]:
    """The players seated at the disputed match (by username), the club's signals that name
    at least one of them (strongest first), and how many rounds the signals were read from:
    what the referee reviewing the dispute may want to weigh, a collusion report above all."""
    _club, found, rounds = club_signals(dispute.tournament.club_id, user)
    players = sorted(reader.usernames(matches.seat_users(dispute.match_id)).values())
    concerned = [s for s in found if set(s.players) & set(players)]
    return players, concerned, rounds


def refereed_clubs(user: Any) -> list[Club]:
    """The clubs where the user referees, by name (the queue page's signals)."""
    ids = Membership.objects.filter(user=user, role__in=Membership.REFEREES).values_list("club_id", flat=True)
    return list(Club.objects.filter(pk__in=list(ids)).order_by("name"))


def _club(club_id: Any) -> Club:
    try:
        return Club.objects.get(pk=int(club_id))
    except (Club.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFound(_("No such club.")) from exc


__all__ = ["club_signals", "dispute_signals", "refereed_clubs"]
