"""The words of a club's management page: its details, members and invitations, its log."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _


def club_labels() -> dict[str, Any]:
    return {
        "saved": _("Saved."),
        "added": _("%(who)s is now %(role)s."),
        "invited": _(
            "%(email)s is invited as %(role)s: the role is theirs when they sign up with that email."
        ),
        "save_roles": _("Save roles"),
        "remove": _("Remove"),
        "remove_confirm": _("Remove %(name)s from the club?"),
        "cancel_invitation": _("Cancel the invitation"),
        "no_invitations": _("No pending invitations."),
        "you": _("(you)"),
        "member_since": _("member since %(when)s"),
        "roles_of": _("Roles of %(name)s"),
        "log": {
            "club-created": _("%(actor)s created the club"),
            "club-updated": _("%(actor)s edited the club: %(fields)s"),
            "member-added": _("%(actor)s made %(user)s %(role)s"),
            "roles-changed": _("%(actor)s changed the roles of %(user)s: %(roles)s"),
            "member-removed": _("%(actor)s removed %(user)s from the club"),
            "left": _("%(user)s left the club"),
            "invited": _("%(actor)s invited %(email)s as %(role)s"),
            "invitation-cancelled": _("%(actor)s cancelled the invitation of %(email)s (%(role)s)"),
            "invitation-accepted": _("%(user)s signed up with %(email)s and became %(role)s"),
        },
        "fields": {"name": _("name"), "slug": _("short name"), "description": _("description")},
        "no_roles": _("no role"),
        "system": _("the system"),
    }
