"""The kinds of notice, the channels each goes by unless the player chose otherwise, and
their words (written when shown or sent, in the reader's language, from names and numbers:
a notice never carries a die)."""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

TABLE_READY = "table-ready"
YOUR_TURN = "your-turn"
RESULT_CHANGED = "result-changed"
STARTS_SOON = "starts-soon"
DISPUTE_RULED = "dispute-ruled"
KINDS = (TABLE_READY, YOUR_TURN, RESULT_CHANGED, STARTS_SOON, DISPUTE_RULED)
CHANNELS = ("in_app", "email", "push")

# A turn is short: the bell and the mail would only tell it late.
DEFAULTS: dict[str, dict[str, bool]] = {
    TABLE_READY: {"in_app": True, "email": True, "push": True},
    YOUR_TURN: {"in_app": False, "email": False, "push": True},
    RESULT_CHANGED: {"in_app": True, "email": True, "push": False},
    STARTS_SOON: {"in_app": True, "email": True, "push": True},
    DISPUTE_RULED: {"in_app": True, "email": True, "push": False},
}


def names() -> dict[str, str]:
    """Each kind as the preferences page names it."""
    return {
        TABLE_READY: _("Your next table is ready"),
        YOUR_TURN: _("It is your turn (while the match's tab is hidden)"),
        RESULT_CHANGED: _("A ruling changed your result"),
        STARTS_SOON: _("The tournament you registered for starts in 15 minutes"),
        DISPUTE_RULED: _("Your dispute was ruled"),
    }


def channel_names() -> dict[str, str]:
    return {"in_app": _("In the app"), "email": _("Email"), "push": _("Browser push")}


def channels_of(choices: dict[str, Any], kind: str) -> dict[str, bool]:
    """The channels of `kind` from a player's stored choices (defaults where none)."""
    chosen = choices.get(kind) if isinstance(choices, dict) else None
    channels = dict(DEFAULTS[kind])
    if isinstance(chosen, dict):
        channels.update({c: bool(chosen[c]) for c in CHANNELS if c in chosen})
    return channels


def words(kind: str, params: dict[str, Any], language: str | None = None) -> tuple[str, str]:
    """(title, body) of a notice, in `language` (the active one when None)."""
    if language:
        with translation.override(language):
            return _words(kind, params)
    return _words(kind, params)


def _words(kind: str, p: dict[str, Any]) -> tuple[str, str]:
    tournament = str(p.get("tournament_name") or "")
    if kind == TABLE_READY:
        return _("Your next table is ready"), _("%(tournament)s, round %(round)s: table %(table)s.") % {
            "tournament": tournament,
            "round": p.get("round"),
            "table": p.get("table"),
        }
    if kind == YOUR_TURN:
        return _("It is your turn"), _("Your table is waiting for your move.")
    if kind == RESULT_CHANGED:
        return _("A ruling changed your result"), _("%(tournament)s, round %(round)s: table %(table)s.") % {
            "tournament": tournament,
            "round": p.get("round"),
            "table": p.get("table"),
        }
    if kind == STARTS_SOON:
        return _("Your tournament starts in 15 minutes"), _(
            "%(tournament)s: check-in closes at %(time)s UTC."
        ) % {
            "tournament": tournament,
            "time": p.get("time"),
        }
    return _("Your dispute was ruled"), _("%(tournament)s: the referee ruled on your dispute.") % {
        "tournament": tournament
    }
