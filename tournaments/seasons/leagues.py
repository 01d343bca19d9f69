"""Leagues of clubs: a league's creator owns it; its owners and organisers invite clubs and
give roles; a club is a member once its owner accepts. League organisers run the league's
seasons; league referees rule on the disputes of the tournaments its seasons count.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from cacho.edge.inputs import plain_digits
from tournaments.clubs.roles import has_role
from tournaments.errors import Forbidden, NotFound, TournamentError
from tournaments.models import Club, Membership
from tournaments.seasons.models import League, LeagueClub, LeagueRole


def get_league(league_id: Any) -> League:
    league = League.objects.filter(pk=league_id).first() if plain_digits(league_id) else None
    if league is None:
        raise NotFound(_("No such league."))
    return league


def roles_of(user: Any, league: League | int) -> set[str]:
    if user is None or not getattr(user, "is_authenticated", False):
        return set()
    league_id = league.pk if isinstance(league, League) else league
    return set(LeagueRole.objects.filter(league_id=league_id, user=user).values_list("role", flat=True))


def manages(user: Any, league: League | int) -> bool:
    return bool(roles_of(user, league) & set(LeagueRole.MANAGERS))


def require_manager(user: Any, league: League | int) -> None:
    if not manages(user, league):
        raise Forbidden(_("Only the league's owners and organisers can do this."))


def member_clubs(league: League | int) -> list[int]:
    league_id = league.pk if isinstance(league, League) else league
    return list(
        LeagueClub.objects.filter(league_id=league_id, status=LeagueClub.ACCEPTED).values_list(
            "club_id", flat=True
        )
    )


def create_league(name: str, by: Any, slug: str = "") -> League:
    name = (name or "").strip()
    if not name or len(name) > 120:
        raise TournamentError(
            "name-missing", _("A league has a name of at most 120 characters."), field="name"
        )
    if by is None or not getattr(by, "is_authenticated", False):
        raise Forbidden(_("Log in to create a league."))
    base = slugify(slug or name)[:70] or "league"
    candidate, n = base, 2
    while League.objects.filter(slug=candidate).exists():
        candidate, n = f"{base}-{n}", n + 1
    with transaction.atomic():
        league = League.objects.create(name=name, slug=candidate, created_by=by)
        LeagueRole.objects.create(league=league, user=by, role=LeagueRole.OWNER)
    return league


def invite_club(league_id: Any, club_id: Any, by: Any) -> LeagueClub:
    """Invite a club (league owners and organisers); the club's owner answers."""
    league = get_league(league_id)
    require_manager(by, league)
    club = Club.objects.filter(pk=club_id).first() if plain_digits(club_id) else None
    if club is None:
        raise NotFound(_("No such club."))
    with transaction.atomic():
        row, created = LeagueClub.objects.get_or_create(league=league, club=club, defaults={"invited_by": by})
        if not created:
            if row.status == LeagueClub.ACCEPTED:
                raise TournamentError("club-already-member", _("This club is already in the league."), 409)
            row.status, row.invited_by, row.answered_by, row.answered_at = LeagueClub.INVITED, by, None, None
            row.save(update_fields=["status", "invited_by", "answered_by", "answered_at"])
    return row


def answer_invitation(league_id: Any, club_id: Any, by: Any, accept: bool) -> LeagueClub:
    """The club's owner accepts (the club joins) or declines the league's invitation."""
    league = get_league(league_id)
    row = LeagueClub.objects.filter(league=league, club_id=club_id).first() if plain_digits(club_id) else None
    if row is None:
        raise NotFound(_("This club has not been invited to the league."))
    if not has_role(by, row.club_id, (Membership.OWNER,)):
        raise TournamentError("owner-only", _("Only the club's owner answers for the club."), 403)
    if row.status != LeagueClub.INVITED:
        raise TournamentError("invitation-answered", _("This invitation has been answered."), 409)
    row.status = LeagueClub.ACCEPTED if accept else LeagueClub.DECLINED
    row.answered_by, row.answered_at = by, timezone.now()
    row.save(update_fields=["status", "answered_by", "answered_at"])
    return row


def set_role(league_id: Any, username: str, role: str, by: Any, grant: bool = True) -> list[str]:
    """Give or take a league role (owners and organisers; the owner role: owners only)."""
    league = get_league(league_id)
    require_manager(by, league)
    if role not in dict(LeagueRole.ROLE_CHOICES):
        raise TournamentError("role-invalid", _("Choose owner, organiser or referee."), field="role")
    if role == LeagueRole.OWNER and LeagueRole.OWNER not in roles_of(by, league):
        raise TournamentError("owner-only", _("Only an owner gives or takes the owner role."), 403)
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise NotFound(_("No account with that username."))
    with transaction.atomic():
        if grant:
            LeagueRole.objects.get_or_create(league=league, user=user, role=role)
        else:
            owners = LeagueRole.objects.filter(league=league, role=LeagueRole.OWNER)
            if role == LeagueRole.OWNER and list(owners.values_list("user_id", flat=True)) == [user.pk]:
                raise TournamentError("last-owner", _("A league keeps an owner."), 409)
            LeagueRole.objects.filter(league=league, user=user, role=role).delete()
    return sorted(roles_of(user, league))


__all__ = [
    "answer_invitation",
    "create_league",
    "get_league",
    "invite_club",
    "manages",
    "member_clubs",
    "require_manager",
    "roles_of",
    "set_role",
]
