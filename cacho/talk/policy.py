"""Who decides what about a table's talk, outside this app.

`CACHO_TALK_TABLE` (a dotted path) names a callable given a match id: None for a casual
table (the players' chat on, reports to the site moderators), or `(player_chat, club_id)`
for a club's table (its tournament switches the players' chat; reports go to the club).
`CACHO_TALK_CLUBS` names one given a user: the ids of the clubs whose queue they moderate.
The tournaments app names both; `cacho` never imports it. A site moderator holds the
permission `cacho.moderate_chat` (directly or through a group).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.utils.module_loading import import_string

MODERATE = "cacho.moderate_chat"


@dataclass(frozen=True)
class TableTalk:
    player_chat: bool
    club_id: int | None  # whose queue takes a report: None for the site moderators'


CASUAL = TableTalk(player_chat=True, club_id=None)

_checks: dict[str, Callable[[Any], Any]] = {}


def _configured(name: str, default: Callable[[Any], Any]) -> Callable[[Any], Any]:
    check = _checks.get(name)
    if check is None:
        path = getattr(settings, name, "")
        check = _checks[name] = import_string(path) if path else default
    return check


def table_talk(match_id: Any) -> TableTalk:
    answer = _configured("CACHO_TALK_TABLE", lambda match_id: None)(match_id)
    if answer is None:
        return CASUAL
    player_chat, club_id = answer
    return TableTalk(bool(player_chat), int(club_id) if club_id is not None else None)


def moderated_clubs(user: Any) -> set[int]:
    if user is None or not getattr(user, "is_authenticated", False):
        return set()
    return {int(club) for club in _configured("CACHO_TALK_CLUBS", lambda user: [])(user)}


def site_moderator(user: Any) -> bool:
    return bool(user is not None and getattr(user, "is_authenticated", False) and user.has_perm(MODERATE))


def _forget(**_: Any) -> None:
    _checks.clear()


setting_changed.connect(_forget, dispatch_uid="cacho.talk.policy")
