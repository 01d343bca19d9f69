"""Clubs: the club, its members' roles (one row per role), its log (append-only,
hash-chained) and the invitations to an email with no account yet. Django finds them through
`tournaments.models`."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.chained_log import ChainedEvent


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    description = models.TextField(_("about the club"), blank=True, default="", max_length=2000)
    created_at = models.DateTimeField(auto_now_add=True)
    # The head of the club's log (`ClubEvent`), as a tournament holds its own.
    version = models.PositiveIntegerField(default=0)
    head_hash = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """One role of a user in a club; a user may hold several roles and belong to several clubs."""

    OWNER = "owner"
    ORGANISER = "organiser"
    REFEREE = "referee"
    SCOREKEEPER = "scorekeeper"
    PLAYER = "player"
    ROLE_CHOICES = [
        (OWNER, _("owner")),
        (ORGANISER, _("organiser")),
        (REFEREE, _("referee")),
        (SCOREKEEPER, _("scorekeeper")),
        (PLAYER, _("player")),
    ]
    MANAGERS = (OWNER, ORGANISER)
    REFEREES = (OWNER, ORGANISER, REFEREE)  # who rules on disputes and sees every die

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=16, choices=ROLE_CHOICES)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "user", "role"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user", "role"], name="tournaments_membership_unique_role"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.role} @ {self.club}"


class ClubEvent(ChainedEvent):
    """A club's log: who joined, left, changed roles or was invited, and edits of the club.
    Append-only and hash-chained per club like the tournament log (`tournaments.clubs.log`)."""

    OWNER = "club"
    # The club's id is hashed under "tournament": the key the club log was first chained
    # with, part of every stored hash (a new key would break the chains already kept).
    OWNER_KEY = "tournament"

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="events")

    class Meta:
        ordering = ["club", "version"]
        constraints = [
            models.UniqueConstraint(fields=["club", "version"], name="tournaments_clubevent_version")
        ]

    def __str__(self) -> str:
        return f"{self.club_id}#{self.version} {self.type}"


class ClubInvitation(models.Model):
    """A role offered to an email with no account yet: it becomes a membership when an
    account verifies that email (`tournaments.clubs.members.accept_invitations`); its mail tells the
    invited person (`tournaments.accounts.invitations`)."""

    PENDING = "pending"
    ACCEPTED = "accepted"
    CANCELLED = "cancelled"
    STATUS_CHOICES = [(PENDING, _("pending")), (ACCEPTED, _("accepted")), (CANCELLED, _("cancelled"))]

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField()
    role = models.CharField(max_length=16, choices=Membership.ROLE_CHOICES)
    status = models.CharField(max_length=16, choices=STATUS_CHOICES, default=PENDING)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["club", "email", "role"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "email", "role"],
                condition=Q(status="pending"),
                name="tournaments_invitation_one_pending",
            )
        ]

    def __str__(self) -> str:
        return f"{self.email} — {self.role} @ {self.club_id}"
