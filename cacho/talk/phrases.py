"""The quick phrases of table talk: a message carries the key, each reader sees the phrase
in their own language."""

from __future__ import annotations

from django.utils.translation import gettext as _


def phrases() -> dict[str, str]:
    """Every phrase by key, in the active language."""
    return {
        "hello": _("Hello!"),
        "good-luck": _("Good luck"),
        "dudo": _("Dudo!"),
        "calzo": _("Calzo!"),
        "good-play": _("Good play"),
        "bluff": _("Nice bluff"),
        "oops": _("Oops!"),
        "thinking": _("Let me think…"),
        "thanks": _("Thanks"),
        "good-game": _("Good game"),
        "rematch": _("Another one?"),
    }


def known(key: str) -> bool:
    return key in phrases()
