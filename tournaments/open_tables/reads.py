"""Open tables as the lobby, the table's page and the API show them: public facts only
(seats, players' names, bots and their strengths; never the private link's secret, which
only the table's host and seated players receive, in `you.link`). No die exists before a
table starts, and a started table shows only its match's id."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from django.db.models import Q

from tournaments.open_tables.models import OpenSeat, OpenTable
from tournaments.reads.catalogue import ruleset_names

LOBBY_SIZE = 50


def _places(tables: Iterable[OpenTable]) -> dict[int, list[OpenSeat]]:
    found: dict[int, list[OpenSeat]] = {}
    rows = OpenSeat.objects.filter(table__in=list(tables)).select_related("user").order_by("index")
    for place in rows:
        found.setdefault(place.table_id, []).append(place)
    return found


def _usernames(ids: Iterable[Any]) -> dict[Any, str]:
    from django.contrib.auth import get_user_model

    users = get_user_model().objects.filter(pk__in=list(ids))
    return {user.pk: user.get_username() for user in users}


def table_json(table: OpenTable, places: list[OpenSeat] | None = None) -> dict[str, Any]:
    """The table as anyone may see it (the lobby's frames carry exactly this)."""
    if places is None:
        places = _places([table]).get(table.pk, [])
    by_index = {place.index: place for place in places}
    names = _usernames([table.host_id, *(table.invited or [])])
    rematch = OpenTable.objects.filter(rematch_of=table).values_list("pk", flat=True).first()
    return {
        "id": table.pk,
        "ruleset": table.ruleset,
        "ruleset_name": ruleset_names().get(table.ruleset, table.ruleset),
        "options": table.options,
        "size": table.size,
        "turn_seconds": table.turn_seconds,
        "rated": table.rated,
        "private": table.private,
        "status": table.status,
        "host": names.get(table.host_id),
        "seats": [
            {
                "index": index,
                "player": None if place is None or place.user is None else place.user.get_username(),
                "bot": None if place is None or not place.bot else place.bot,
            }
            for index, place in ((i, by_index.get(i)) for i in range(table.size))
        ],
        "free": table.size - len(places),
        "match": None if table.match_id is None else str(table.match_id),
        "rematch": rematch,
        "rematch_of": table.rematch_of_id,
        "invited": [names[u] for u in table.invited or [] if u in names],
    }


def you_json(table: OpenTable, user: Any, places: list[OpenSeat] | None = None) -> dict[str, Any]:
    """What the caller is at this table; the link only for its host and seated players."""
    if user is None or not user.is_authenticated:
        return {"seated": False, "host": False, "invited": False, "link": None}
    if places is None:
        places = list(OpenSeat.objects.filter(table=table))
    seated = any(place.user_id == user.pk for place in places)
    host = table.host_id == user.pk
    return {
        "seated": seated,
        "host": host,
        "invited": user.pk in (table.invited or []),
        "link": f"/tables/{table.pk}/?join={table.token}" if (seated or host) else None,
    }


def visible_to(table: OpenTable, user: Any, token: str | None = None) -> bool:
    """A public table is anyone's to see; a private one its host's, its seated and invited
    players', and whoever has its link."""
    if not table.private:
        return True
    if token is not None and secrets.compare_digest(str(token).encode(), table.token.encode()):
        return True
    if user is None or not user.is_authenticated:
        return False
    if table.host_id == user.pk or user.pk in (table.invited or []):
        return True
    return OpenSeat.objects.filter(table=table, user=user).exists()


def lobby_tables(user: Any) -> list[dict[str, Any]]:
    """Public tables waiting for players with a free seat, and the caller's own waiting
    tables (private ones and those that invite them too), newest first."""
    waiting = Q(status=OpenTable.OPEN)
    shown = Q(private=False)
    if user is not None and user.is_authenticated:
        mine = OpenSeat.objects.filter(user=user).values("table_id")
        # a rematch's invitations are looked up below (a JSON list: no portable index)
        shown |= Q(pk__in=mine) | Q(host=user) | Q(rematch_of__isnull=False)
    tables = list(OpenTable.objects.filter(waiting & shown).order_by("-created_at")[: LOBBY_SIZE * 2])
    places = _places(tables)
    found = []
    for table in tables:
        you = you_json(table, user, places.get(table.pk, []))
        if table.private and not (you["seated"] or you["host"] or you["invited"]):
            continue
        row = table_json(table, places.get(table.pk, []))
        row["you"] = you
        if row["free"] or you["seated"]:
            found.append(row)
    return found[:LOBBY_SIZE]


def public_waiting() -> list[dict[str, Any]]:
    """The lobby socket's first frame: public tables waiting for players."""
    tables = list(OpenTable.objects.filter(status=OpenTable.OPEN, private=False).order_by("-created_at"))
    places = _places(tables[:LOBBY_SIZE])
    return [table_json(t, places.get(t.pk, [])) for t in tables[:LOBBY_SIZE]]
