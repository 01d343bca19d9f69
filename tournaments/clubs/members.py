"""A club's details and people: edit the club, add members by username or by email (an email
with no account yet is a pending invitation, accepted when that account signs up), change
a member's roles, remove a member, cancel an invitation. Every change lands in the club's
log (`club_log`).

Who may do what: owners and organisers manage the members; only an owner gives or takes
the owner role, or changes an owner's roles; a club keeps at least one owner; anyone may
leave a club (the last owner excepted).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from cacho.edge.inputs import plain_digits
from tournaments.clubs import log as club_log
from tournaments.clubs.roles import roles_of
from tournaments.errors import Forbidden, NotFound, TournamentError
from tournaments.models import Club, ClubInvitation, Membership
from tournaments.services.log import actor_of
from tournaments.services.usernames import user_by_username

ROLES = tuple(code for code, _name in Membership.ROLE_CHOICES)
ROLE_ORDER = {code: i for i, code in enumerate(ROLES)}
NAME_LENGTH = 120
SLUG_LENGTH = 80
DESCRIPTION_LENGTH = 2000
SLUG = re.compile(r"^[-a-z0-9]+$")


def _require_manager(by: Any, club: Club) -> set[str]:
    if by is None or not getattr(by, "is_authenticated", False):
        raise Forbidden(_("Log in to manage a club."))
    mine = roles_of(by, club)
    if not mine & set(Membership.MANAGERS):
        raise Forbidden(_("Only the club's owners and organisers manage its members."))
    return mine


def _sorted(roles: Iterable[str]) -> list[str]:
    return sorted(set(roles), key=ROLE_ORDER.__getitem__)


def _who(user: Any) -> dict[str, Any]:
    return {"user": user.pk, "username": user.get_username()}


def _check_role(role: Any) -> str:
    if role not in ROLES:
        raise TournamentError("role-unknown", _("Unknown role."))
    return str(role)


# ---------------------------------------------------------------- the club itself


def clean_name(name: Any) -> str:
    name = str(name or "").strip()
    if not name or len(name) > NAME_LENGTH:
        raise TournamentError("club-name-invalid", _("A club's name has 1 to 120 characters."))
    return name


def clean_slug(slug: Any) -> str:
    slug = str(slug or "").strip().lower()
    if not slug or len(slug) > SLUG_LENGTH or not SLUG.match(slug):
        raise TournamentError(
            "club-slug-invalid", _("A club's short name uses lower-case letters, digits and hyphens.")
        )
    return slug


def free_slug(name: str) -> str:
    """A slug from the club's name, numbered when taken ("club-del-cacho-2")."""
    base = (slugify(name) or "club")[: SLUG_LENGTH - 4].strip("-") or "club"
    slug, n = base, 1
    while Club.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def update_club(club_id: Any, by: Any, **changes: Any) -> Club:
    """Change the name, the slug or the description (owners and organisers; logged)."""
    with transaction.atomic():
        club = club_log.locked_club(club_id)
        _require_manager(by, club)
        unknown = set(changes) - {"name", "slug", "description"}
        if unknown:
            raise TournamentError("field-unknown", _("These fields cannot be changed: %s") % sorted(unknown))
        if "name" in changes:
            changes["name"] = clean_name(changes["name"])
        if "slug" in changes:
            changes["slug"] = clean_slug(changes["slug"])
            if Club.objects.filter(slug=changes["slug"]).exclude(pk=club.pk).exists():
                raise TournamentError("club-slug-taken", _("That club slug is taken."))
        if "description" in changes:
            changes["description"] = str(changes["description"] or "").strip()
            if len(changes["description"]) > DESCRIPTION_LENGTH:
                raise TournamentError(
                    "club-description-invalid", _("The description has at most 2000 characters.")
                )
        changed = {k: v for k, v in changes.items() if getattr(club, k) != v}
        if not changed:
            return club
        before = {k: getattr(club, k) for k in changed}
        for key, value in changed.items():
            setattr(club, key, value)
        club.save(update_fields=list(changed))
        club_log.record(club, club_log.CLUB_UPDATED, {"from": before, "to": changed}, actor_of(by))
    return club


def create_club(name: str, slug: str, owner: Any, description: str = "") -> Club:
    """A new club owned by `owner`; without a slug, one is made from the name (logged)."""
    if owner is None or not getattr(owner, "is_authenticated", False):
        raise Forbidden(_("Log in to create a club."))
    name = clean_name(name)
    slug = clean_slug(slug) if slug else free_slug(name)
    description = str(description or "").strip()[:DESCRIPTION_LENGTH]
    try:
        with transaction.atomic():
            club = Club.objects.create(name=name, slug=slug, description=description)
            Membership.objects.create(club=club, user=owner, role=Membership.OWNER)
            club_log.record(
                club,
                club_log.CLUB_CREATED,
                {"name": name, "slug": slug, "owner": owner.pk, "username": owner.get_username()},
                actor_of(owner),
            )
    except IntegrityError as exc:
        raise TournamentError("club-slug-taken", _("That club slug is taken.")) from exc
    return club


def grant_role(club_id: int, user: Any, role: str, by: Any) -> Membership:
    """`user` gets `role` (idempotent; `add_member` names people by username or email)."""
    try:
        found = add_member(club_id, by, role=role, username=user.get_username())
    except TournamentError as exc:
        if exc.code != "member-has-role":
            raise
        return Membership.objects.get(club_id=club_id, user=user, role=role)
    assert isinstance(found, Membership)
    return found


# ---------------------------------------------------------------- finding people


def users_by_email(email: str) -> list[Any]:
    """The active accounts that verified this address (docs/accounts.md): an address not
    verified may belong to someone else, who is invited instead."""
    users = get_user_model().objects.filter(email__iexact=email, is_active=True)
    return list(users.filter(account__verified_email__iexact=email))


def clean_email(email: Any) -> str:
    email = str(email or "").strip()
    try:
        validate_email(email)
    except ValidationError as exc:
        raise TournamentError("email-invalid", _("That is not an email address.")) from exc
    return email.lower()


# ---------------------------------------------------------------- members


def _grant(club: Club, user: Any, role: str, by: Any, *, via: int | None = None) -> Membership:
    membership, created = Membership.objects.get_or_create(club=club, user=user, role=role)
    if created:
        payload = {**_who(user), "role": role}
        if via is not None:
            payload["invitation"] = via
        club_log.record(club, club_log.MEMBER_ADDED, payload, actor_of(by))
    return membership


def add_member(
    club_id: Any, by: Any, *, role: Any, username: Any = None, email: Any = None
) -> Membership | ClubInvitation:
    """A role for the account named by `username`, or by `email`: a membership when an account
    has that email, else a pending invitation for it. A user may join as a player alone."""
    with transaction.atomic():
        club = club_log.locked_club(club_id)
        role = _check_role(role)
        if bool(username) == bool(email):
            raise TournamentError(
                "member-identity-missing", _("Name the person by their username or by their email.")
            )
        if username:
            user = user_by_username(username)
            self_join = by is not None and getattr(by, "pk", None) == user.pk and role == Membership.PLAYER
            if self_join:
                return _grant(club, user, role, by)
        mine = _require_manager(by, club)
        if role == Membership.OWNER and Membership.OWNER not in mine:
            raise TournamentError("owner-only", _("Only an owner makes someone an owner."), status=403)
        if username:
            if Membership.objects.filter(club=club, user=user, role=role).exists():
                raise TournamentError("member-has-role", _("This member already holds that role."))
            return _grant(club, user, role, by)
        address = clean_email(email)
        accounts = users_by_email(address)
        if len(accounts) > 1:
            raise TournamentError(
                "email-ambiguous", _("Several accounts have that email: add the person by username.")
            )
        if accounts:
            if Membership.objects.filter(club=club, user=accounts[0], role=role).exists():
                raise TournamentError("member-has-role", _("This member already holds that role."))
            return _grant(club, accounts[0], role, by)
        try:
            with transaction.atomic():
                invitation = ClubInvitation.objects.create(club=club, email=address, role=role, invited_by=by)
        except IntegrityError as exc:
            raise TournamentError(
                "invitation-exists", _("That email is already invited with that role.")
            ) from exc
        club_log.record(
            club,
            club_log.INVITED,
            {"invitation": invitation.pk, "email": address, "role": role},
            actor_of(by),
        )
        from tournaments.accounts.invitations import mail_invitation

        mail_invitation(invitation)  # sent after the commit
    return invitation


def _owners(club: Club) -> set[int]:
    return set(Membership.objects.filter(club=club, role=Membership.OWNER).values_list("user_id", flat=True))


def set_roles(club_id: Any, by: Any, username: Any, roles: Sequence[Any]) -> list[str]:
    """Give the member exactly `roles` (none: the member leaves the club). Owners and
    organisers change others' roles; only an owner touches the owner role or an owner's
    roles; anyone may give up their own roles; a club keeps an owner."""
    with transaction.atomic():
        club = club_log.locked_club(club_id)
        if by is None or not getattr(by, "is_authenticated", False):
            raise Forbidden(_("Log in to manage a club."))
        user = user_by_username(username)
        wanted = {_check_role(r) for r in roles}
        held = roles_of(user, club)
        if not held:
            raise NotFound(_("This person is not a member of the club."))
        added, removed = wanted - held, held - wanted
        if not added and not removed:
            return _sorted(held)
        leaving_only = user.pk == by.pk and not added
        mine = roles_of(by, club)
        if not leaving_only:
            _require_manager(by, club)
        touches_owner = Membership.OWNER in added | removed or Membership.OWNER in held
        if touches_owner and Membership.OWNER not in mine and not leaving_only:
            raise TournamentError(
                "owner-only", _("Only an owner changes the owner role or an owner's roles."), status=403
            )
        if Membership.OWNER in removed and _owners(club) == {user.pk}:
            raise TournamentError(
                "last-owner", _("A club keeps at least one owner: name another owner first.")
            )
        Membership.objects.filter(club=club, user=user, role__in=removed).delete()
        for role in _sorted(added):
            Membership.objects.create(club=club, user=user, role=role)
        if wanted:
            payload = {
                **_who(user),
                "added": _sorted(added),
                "removed": _sorted(removed),
                "roles": _sorted(wanted),
            }
            club_log.record(club, club_log.ROLES_CHANGED, payload, actor_of(by))
        else:
            club_log.record(
                club, club_log.MEMBER_REMOVED, {**_who(user), "roles": _sorted(held)}, actor_of(by)
            )
    return _sorted(wanted)


def remove_member(club_id: Any, by: Any, username: Any) -> None:
    set_roles(club_id, by, username, [])


# ---------------------------------------------------------------- invitations


def cancel_invitation(club_id: Any, by: Any, invitation_id: Any) -> ClubInvitation:
    with transaction.atomic():
        club = club_log.locked_club(club_id)
        mine = _require_manager(by, club)
        try:
            invitation = ClubInvitation.objects.select_for_update().get(pk=int(invitation_id), club=club)
        except (ClubInvitation.DoesNotExist, ValueError, TypeError) as exc:
            raise NotFound(_("No such invitation.")) from exc
        if invitation.status != ClubInvitation.PENDING:
            raise TournamentError(
                "invitation-closed", _("This invitation was accepted or cancelled already.")
            )
        if invitation.role == Membership.OWNER and Membership.OWNER not in mine:
            raise TournamentError("owner-only", _("Only an owner cancels an owner's invitation."), status=403)
        invitation.status, invitation.closed_at = ClubInvitation.CANCELLED, timezone.now()
        invitation.save(update_fields=["status", "closed_at"])
        payload = {"invitation": invitation.pk, "email": invitation.email, "role": invitation.role}
        club_log.record(club, club_log.INVITATION_CANCELLED, payload, actor_of(by))
    return invitation


def accept_invitations(user: Any) -> list[Membership]:
    """The pending invitations to the account's email become its memberships (once the
    account has verified that address: `tournaments.accounts.services.verify_email`)."""
    email = (getattr(user, "email", "") or "").strip()
    if not email:
        return []
    granted = []
    with transaction.atomic():
        pending = ClubInvitation.objects.filter(email__iexact=email, status=ClubInvitation.PENDING)
        for club_id in sorted(set(pending.values_list("club_id", flat=True))):
            club = club_log.locked_club(club_id)
            for invitation in pending.filter(club=club).select_for_update().order_by("pk"):
                invitation.status, invitation.closed_at = ClubInvitation.ACCEPTED, timezone.now()
                invitation.accepted_by = user
                invitation.save(update_fields=["status", "closed_at", "accepted_by"])
                club_log.record(
                    club,
                    club_log.INVITATION_ACCEPTED,
                    {
                        "invitation": invitation.pk,
                        "email": invitation.email,
                        "role": invitation.role,
                        **_who(user),
                    },
                    actor_of(user),
                )
                granted.append(_grant(club, user, invitation.role, user, via=invitation.pk))
    return granted


# ---------------------------------------------------------------- reading


def members_of(club_id: Any, by: Any) -> dict[str, Any]:
    """The members (each with every role held), the pending invitations and the club's log,
    for its owners and organisers."""
    club = Club.objects.filter(pk=club_id).first() if plain_digits(club_id) else None
    if club is None:
        raise NotFound(_("No such club."))
    _require_manager(by, club)
    people: dict[int, dict[str, Any]] = {}
    for row in Membership.objects.filter(club=club).select_related("user").order_by("user__username"):
        item = people.setdefault(
            row.user_id,
            {"user": row.user_id, "username": row.user.get_username(), "roles": [], "since": None},
        )
        item["roles"].append(row.role)
        item["since"] = min(filter(None, [item["since"], row.created_at]))
    for item in people.values():
        item["roles"] = _sorted(item["roles"])
    invitations = list(club.invitations.filter(status=ClubInvitation.PENDING).order_by("email", "role"))
    return {"club": club, "members": list(people.values()), "invitations": invitations}


def actor_names(actors: Iterable[str]) -> dict[str, str]:
    """Usernames of log actors (`user:<id>`), for readers."""
    ids = {
        int(a.split(":", 1)[1]) for a in actors if a.startswith("user:") and plain_digits(a.split(":", 1)[1])
    }
    users = get_user_model().objects.filter(pk__in=ids).values_list("pk", "username")
    return {f"user:{pk}": name for pk, name in users}
