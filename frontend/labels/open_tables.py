"""Translated labels of the open tables' pages: the lobby's section, "New table", the
table's waiting room and the match page's rematch box (docs/lobby.md, "Open tables")."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _


def bot_names() -> dict[str, str]:
    """The bots' strengths (the engine's codes) in words."""
    return {
        "random": _("Plain bot (random legal moves)"),
        "reasoning": _("Thinking bot (weighs its dice and the bid)"),
    }


def open_table_labels() -> dict[str, Any]:
    return {
        "bots": bot_names(),
        "bot": _("bot"),
        "seat": _("Seat %(n)s"),
        "free": _("free"),
        "free_seats": _("%(n)s free"),
        "host": _("host: %(name)s"),
        "rated": _("Rated"),
        "casual": _("Casual"),
        "private": _("Private"),
        "turn": _("%(n)s s a turn"),
        "sit": _("Take a seat"),
        "view": _("Open the table"),
        "leave": _("Leave the seat"),
        "start": _("Start now"),
        "fill": _("Fill the empty seats with bots"),
        "strength": _("Bots"),
        "link": _("Private link: whoever opens it signed in takes a seat"),
        "share": _("Link to this table: send it to friends"),
        "copy": _("Copy the link"),
        "copied": _("Link copied."),
        "none": _("No open table waits for players. Open one!"),
        "waiting": _("Waiting for players: the table starts when it is full, or when the host starts it."),
        "started": _("The table has started."),
        "go": _("Go to the match"),
        "closed": _("The host closed this table."),
        "finished": _("This table has finished."),
        "invited": _("You are invited to this rematch."),
        "rematch": _("Rematch"),
        "rematch_open": _("The rematch is open"),
        "rematch_join": _("Join the rematch"),
        "at_table": _("Casual table"),
        "bots_here": _("Bots at this table: %(names)s"),
        "sign_in": _("Sign in to take a seat."),
        "need_two": _("At least two seated to start."),
        "no_bots_rated": _("A rated table takes no bots."),
    }
