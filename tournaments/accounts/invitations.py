"""A club's invitation by email tells the invited person: the link opens the sign-up with
that address; once the address is verified the invitation becomes a membership
(`tournaments.clubs.members.accept_invitations`)."""

from __future__ import annotations

from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import get_language

from tournaments.mail import send_mail_after_commit, site_url
from tournaments.models import ClubInvitation


def signup_link(address: str) -> str:
    return site_url(reverse("frontend:signup") + "?" + urlencode({"email": address}))


def mail_invitation(invitation: ClubInvitation) -> None:
    """Queue the invitation's mail (after the commit that stores it), in the language of
    the person inviting, who knows the invited one."""
    by = invitation.invited_by
    inviter = (getattr(getattr(by, "account", None), "display_name", "") or by.get_username()) if by else ""
    context = {
        "club": invitation.club.name,
        "role": invitation.role,
        "inviter": inviter or invitation.club.name,
        "link": signup_link(invitation.email),
    }
    send_mail_after_commit("club_invitation", invitation.email, context, get_language())
