"""Read-only queries behind the lobby, "My matches" and the players' pages.

Nothing here writes. Match data comes from the match server's public projections
(`MatchSummary`, and `LiveTable`, the spectator's view: no hidden die ever) and seats; a
finished match's placements from `tournaments.matches.match_result`; tournament data
from this app's rows.

The lobby's "TV" shows the live table with the highest interest score, which is
`closeness + pressure`, each from 0 to 1:

- closeness: how near the runner-up is to the leader, over the standings the game gives its
  seats (`Game.table_line`: dice left in the bidding games, card totals in Alalay). 1 for a
  tie, 0 when the runner-up has nothing (`1 - (leader - runner_up) / leader`).
- pressure: the game's own (`TableLine.pressure`): the standing bid's quantity over the
  dice on the table (a bid near every die is about to be called), or the share of the
  Alalay boxes already written (the end of the card decides the match).

Ties go to the table that moved last. A paused table scores 0: nothing happens there.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count

from cacho.edge.inputs import plain_digits
from cacho.engine.games import game_named
from cacho.models import LiveTable, Match, Seat
from tournaments.matches import match_result, seat_labels
from tournaments.models import Entry, Table, Tournament
from tournaments.reads import catalogue
from tournaments.services import standings

LIVE_TABLES = 12
COMING_TOURNAMENTS = 10
LIVE_MATCHES = 20  # a player's own live matches in the lobby
PAGE_SIZE = 20
RESULTS = ("won", "lost")
STATUSES = (Match.STATUS_LIVE, Match.STATUS_FINISHED)


class BadFilter(ValueError):
    """A filter value the list does not know: `code` names which (stable, for the API)."""

    def __init__(self, code: str, field: str) -> None:
        super().__init__(code)
        self.code = code
        self.field = field


# ---------------------------------------------------------------- interest score


def _closeness(values: Sequence[float]) -> float:
    ranked = sorted(values, reverse=True)
    if len(ranked) < 2 or ranked[0] <= 0:
        return 0.0
    return 1.0 - (ranked[0] - ranked[1]) / ranked[0]


def interest(view: dict[str, Any]) -> dict[str, float]:
    """The score of a live table's spectator view, with its two parts (see the module): the
    seats' standings and the pressure come from the game (`Game.table_line`)."""
    if view.get("paused"):
        return {"score": 0.0, "closeness": 0.0, "pressure": 0.0}
    game = game_named(view.get("game", ""))
    line = game.table_line(view)
    closeness = round(_closeness(line.standings(game.traits.standing)), 3)
    pressure = round(line.pressure, 3)
    return {"score": round(closeness + pressure, 3), "closeness": closeness, "pressure": pressure}


# ---------------------------------------------------------------- tournaments of matches


def tournaments_of(match_ids: Iterable[Any]) -> dict[str, dict[str, Any]]:
    """Match id -> its tournament table (`{"id", "name", "round", "table"}`), for those that are one."""
    tables = Table.objects.filter(match_id__in=list(match_ids)).select_related("round__tournament")
    return {
        str(t.match_id): {
            "id": t.round.tournament_id,
            "name": t.round.tournament.name,
            "round": t.round.number,
            "table": t.number,
        }
        for t in tables
    }


def _users_of(match_ids: Iterable[Any]) -> dict[tuple[str, int], tuple[str | None, str]]:
    """(match id, seat index) -> the seated user's username (None once deleted: no public
    page is left) and the seat's label (`tournaments.matches.seat_labels`)."""
    seats = list(Seat.objects.filter(match_id__in=list(match_ids)).select_related("user"))
    labels = seat_labels(seats)
    found: dict[tuple[str, int], tuple[str | None, str]] = {}
    for s in seats:
        label = labels[(str(s.match_id), s.name)]
        deleted = s.user is not None and label != s.name and not s.user.is_active
        username = None if s.user is None or deleted else s.user.get_username()
        found[(str(s.match_id), s.index)] = (username, label)
    return found


# ---------------------------------------------------------------- live tables


def _table_card(
    match: Match, view: dict[str, Any], users: dict[tuple[str, int], tuple[str | None, str]]
) -> dict[str, Any]:
    key = str(match.pk)
    game = game_named(match.game)
    line = game.table_line(view)
    players = [dict(seat) for seat in line.seats]
    for index, player in enumerate(players):
        player["username"], player["label"] = users.get((key, index), (None, player["name"]))
    return {
        "match": key,
        "game": match.game,
        # what a player's standing is ("dice" or "total", the key in `players`) and whether
        # the game bids: the page draws from these, never from the game's name
        "standing": game.traits.standing,
        "bids": game.traits.bids,
        "ruleset": match.ruleset,
        "ruleset_name": catalogue.ruleset_names().get(match.ruleset, match.ruleset),
        "players": players,
        "to_act": line.to_act,
        "bid": line.bid,
        "round": line.round,
        "paused": bool(view.get("paused")),
        "interest": interest(view),
    }


def live_tables(limit: int = LIVE_TABLES) -> list[dict[str, Any]]:
    """The live tables, most interesting first (the first is the lobby's TV)."""
    rows = (
        LiveTable.objects.filter(match__status=Match.STATUS_LIVE)
        .select_related("match", "match__summary")
        .order_by("-match__summary__last_event_at")[:200]
    )
    rows = list(rows)
    ids = [row.match_id for row in rows]
    users = _users_of(ids)
    cards = [_table_card(row.match, row.view, users) for row in rows]
    # sorted() is stable: among equal scores the table that moved last stays first.
    cards = sorted(cards, key=lambda card: -card["interest"]["score"])[:limit]
    found = tournaments_of(card["match"] for card in cards)
    for card in cards:
        card["tournament"] = found.get(card["match"])
    return cards


# ---------------------------------------------------------------- tournaments


def _tournament_card(t: Tournament) -> dict[str, Any]:
    return {
        "id": t.pk,
        "name": t.name,
        "club": t.club.name,
        "status": t.status,
        "ruleset_name": catalogue.ruleset_names().get(t.ruleset, t.ruleset),
        "entries": getattr(t, "entry_count", None),
        "started_at": t.started_at,
        "checkin_deadline": t.checkin_deadline,
    }


def tournaments_now() -> dict[str, list[dict[str, Any]]]:
    """Running tournaments (latest started first) and those open for registration (soonest
    check-in first). Drafts are the organisers' business and stay out."""
    base = Tournament.objects.select_related("club").annotate(entry_count=Count("entries"))
    running = base.filter(status=Tournament.RUNNING).order_by("-started_at")[:COMING_TOURNAMENTS]
    coming = base.filter(status=Tournament.REGISTRATION).order_by("checkin_deadline", "created_at")
    return {
        "running": [_tournament_card(t) for t in running],
        "coming": [_tournament_card(t) for t in coming[:COMING_TOURNAMENTS]],
    }


def _on_turn(seat: Seat) -> bool:
    summary = getattr(seat.match, "summary", None)
    return summary is not None and summary.to_act == seat.name


def live_matches_of(user: Any, limit: int = LIVE_MATCHES) -> list[dict[str, Any]]:
    """Every live match the player is seated at: those where it is their turn first, then
    the latest started. A player in a tournament and casual games at once sits at several."""
    seats = list(
        Seat.objects.filter(user=user, match__status=Match.STATUS_LIVE)
        .select_related("match", "match__summary")
        .order_by("-match__created_at")[:limit]
    )
    # sorted() is stable: within each group the latest started stays first.
    seats = sorted(seats, key=lambda seat: not _on_turn(seat))
    ids = [seat.match_id for seat in seats]
    at_table: dict[Any, list[Seat]] = {}
    for other in Seat.objects.filter(match_id__in=ids).select_related("user").order_by("index"):
        at_table.setdefault(other.match_id, []).append(other)
    labels = seat_labels([o for table in at_table.values() for o in table])
    names = catalogue.ruleset_names()
    tables = tournaments_of(ids)
    return [
        {
            "kind": "match",
            "match": str(seat.match_id),
            "ruleset_name": names.get(seat.match.ruleset, seat.match.ruleset),
            "your_turn": _on_turn(seat),
            "opponents": [
                {
                    "name": labels.get((str(o.match_id), o.name), o.name),
                    "username": o.user.get_username() if o.user and o.user.is_active else None,
                }
                for o in at_table.get(seat.match_id, [])
                if o.index != seat.index
            ],
            "tournament": tables.get(str(seat.match_id)),
        }
        for seat in seats
    ]


def next_match(user: Any, live: list[dict[str, Any]] | None = None) -> dict[str, Any] | None:
    """A player's current match (the first of `live_matches_of`), or the tournament where
    they wait for their next table; None when neither."""
    live = live_matches_of(user) if live is None else live
    if live:
        return live[0]
    waiting = Entry.objects.filter(
        user=user, status__in=[Entry.REGISTERED, Entry.CHECKED_IN, Entry.ACTIVE]
    ).select_related("tournament")
    # A running tournament's next table comes before a registration's first one.
    entry = (
        waiting.filter(tournament__status=Tournament.RUNNING).order_by("-tournament__started_at").first()
        or waiting.filter(tournament__status=Tournament.REGISTRATION)
        .order_by("tournament__checkin_deadline", "tournament__created_at")
        .first()
    )
    if entry is None:
        return None
    return {
        "kind": "waiting",
        "tournament": {
            "id": entry.tournament_id,
            "name": entry.tournament.name,
            "status": entry.tournament.status,
        },
    }


# ---------------------------------------------------------------- a player's matches


@dataclass(frozen=True)
class MatchFilter:
    result: str = ""  # "", "won", "lost" (a finished match's placement: 1 or worse)
    status: str = ""  # "", "live", "finished"
    tournament: str = ""  # "", "none" (casual matches) or a tournament id
    page: int = 1

    @classmethod
    def parse(cls, params: Any) -> MatchFilter:
        """From query parameters; BadFilter names the first bad one."""
        result = params.get("result", "")
        if result not in ("", *RESULTS):
            raise BadFilter("invalid-result", "result")
        status = params.get("status", "")
        if status not in ("", *STATUSES):
            raise BadFilter("invalid-status", "status")
        tournament = params.get("tournament", "")
        if tournament not in ("", "none") and not (plain_digits(tournament) and len(tournament) <= 12):
            raise BadFilter("invalid-tournament", "tournament")
        page = params.get("page", "1")
        if not (plain_digits(page) and 1 <= int(page) <= 100_000):
            raise BadFilter("invalid-page", "page")
        return cls(result, status, tournament, int(page))


def player(username: str) -> Any:
    """The user of that name, or None."""
    return get_user_model().objects.filter(username=username).first()


def matches_of(user: Any, wanted: MatchFilter) -> dict[str, Any]:
    """One page of a player's matches, newest first, each with its opponents, the player's
    placement (finished matches), date and tournament. `pages` is at least 1."""
    seats = list(
        Seat.objects.filter(user=user)
        .select_related("match", "match__summary")
        .order_by("-match__created_at")
    )
    tables = tournaments_of(s.match_id for s in seats)
    chosen = [s for s in seats if _keeps(s, tables.get(str(s.match_id)), wanted)]
    pages = max(1, math.ceil(len(chosen) / PAGE_SIZE))
    start = (wanted.page - 1) * PAGE_SIZE
    page = chosen[start : start + PAGE_SIZE]
    names = catalogue.ruleset_names()
    everyone = list(Seat.objects.filter(match_id__in=[s.match_id for s in page]).select_related("user"))
    labels = seat_labels(everyone)
    at_table: dict[str, list[Seat]] = {}
    for other in everyone:
        at_table.setdefault(str(other.match_id), []).append(other)
    rows = []
    for seat in page:
        match, key = seat.match, str(seat.match_id)
        rows.append(
            {
                "match": key,
                "ruleset": match.ruleset,
                "ruleset_name": names.get(match.ruleset, match.ruleset),
                "status": match.status,
                "seat": seat.name,
                "label": labels.get((key, seat.name), seat.name),
                "placement": _placement(match, seat.index),
                "players": len(at_table.get(key, [])),
                "opponents": [
                    {
                        "name": labels.get((str(o.match_id), o.name), o.name),
                        "username": o.user.get_username() if o.user and o.user.is_active else None,
                    }
                    for o in at_table.get(key, [])
                    if o.index != seat.index
                ],
                "started_at": match.created_at,
                "finished_at": match.finished_at,
                "tournament": tables.get(key),
            }
        )
    return {
        "count": len(chosen),
        "page": wanted.page,
        "pages": pages,
        "page_size": PAGE_SIZE,
        "results": rows,
    }


def _won(seat: Seat) -> bool:
    summary = getattr(seat.match, "summary", None)
    return summary is not None and seat.name in (summary.winners or [])


def _keeps(seat: Seat, table: dict[str, Any] | None, wanted: MatchFilter) -> bool:
    status = seat.match.status
    if wanted.status and status != wanted.status:
        return False
    # A live match has no result yet: neither won nor lost.
    if wanted.result and (status != Match.STATUS_FINISHED or _won(seat) != (wanted.result == "won")):
        return False
    if wanted.tournament == "none":
        return table is None
    if wanted.tournament:
        return table is not None and str(table["id"]) == wanted.tournament
    return True


def _placement(match: Match, seat_index: int) -> int | None:
    """The seat's place in a finished match (1 the winner), read from its events."""
    if match.status != Match.STATUS_FINISHED:
        return None
    outcome = match_result(match.pk)
    return next((r.placement for r in outcome.results if r.seat == seat_index), None)


def tournaments_entered(user: Any) -> list[dict[str, Any]]:
    """The tournaments a player entered (theirs or a team's they play in), newest first,
    with their final place once the tournament has finished."""
    entries = (
        Entry.objects.filter(user=user)
        .exclude(tournament__status=Tournament.DRAFT)
        .select_related("tournament", "tournament__club")
        .order_by("-tournament__created_at")
    )
    rows = []
    for entry in entries:
        t = entry.tournament
        place = None
        if t.status == Tournament.FINISHED:
            place = next((p.place for p in standings.final_ranking(t) if p.entry_id == entry.pk), None)
        rows.append(
            {
                "id": t.pk,
                "name": t.name,
                "club": t.club.name,
                "status": t.status,
                "entry": entry.name,
                "entry_status": entry.status,
                "place": place,
                "entries": t.entries.count(),
                "finished_at": t.finished_at,
            }
        )
    return rows
