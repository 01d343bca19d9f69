"""Translated labels of table talk's panel on the match page and of the moderation queue
(docs/table-talk.md)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from cacho.talk.phrases import phrases


def talk_labels() -> dict[str, Any]:
    return {
        "title": _("Table talk"),
        "players": _("Players"),
        "spectators": _("Spectators"),
        "phrases": phrases(),
        "quick": _("Quick phrases"),
        "message": _("Your message"),
        "send": _("Send"),
        "empty": _("No messages yet."),
        "report": _("Report"),
        "report_label": _("Report this message by %(name)s"),
        "reported": _("Reported: the moderators will look at it."),
        "mute": _("Mute %(name)s"),
        "unmute": _("Unmute %(name)s"),
        "muted_note": _("You muted %(names)s."),
        "off": _("The organisers switched the players' chat off for this tournament."),
        "hidden": _("The spectators' chat opens to the players when the match ends."),
        "sign_in": _("Sign in to write in the spectators' chat."),
    }


def queue_labels() -> dict[str, Any]:
    return {
        "phrases": phrases(),
        "empty": _("No reported messages."),
        "reported_by": _("Reported by %(name)s"),
        "reason": _("Reason: %(reason)s"),
        "table": _("Open the table"),
        "dismiss": _("Dismiss"),
        "act": _("Acted on"),
        "note": _("Note (optional)"),
        "club": _("Club queue"),
        "site": _("Casual tables"),
        "statuses": {"open": _("open"), "dismissed": _("dismissed"), "acted": _("acted on")},
        "around": _("The messages around it"),
        "players": _("Players"),
        "spectators": _("Spectators"),
    }
