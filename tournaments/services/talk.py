"""The tournaments app's answers to table talk (cacho.talk.policy, docs/table-talk.md): a
club table's players' chat follows its tournament's switch and its reports go to the club's
queue, which the club's owners, organisers and referees moderate."""

from __future__ import annotations

from typing import Any

from tournaments.models import Membership, Table


def table_talk(match_id: Any) -> tuple[bool, int] | None:
    """(players' chat on, club id) for a tournament table's match; None for a casual one."""
    row = (
        Table.objects.filter(match_id=match_id)
        .values_list("round__tournament__player_chat", "round__tournament__club_id")
        .first()
    )
    return None if row is None else (bool(row[0]), int(row[1]))


def moderated_clubs(user: Any) -> list[int]:
    return list(
        Membership.objects.filter(user=user, role__in=Membership.REFEREES)
        .values_list("club_id", flat=True)
        .distinct()
    )
