"""Rated open tables as the rating fold reads them (`ratings.projection`): the same
OpenSkill ratings per game family as tournament tables. A table is rated when its host
chose so and no bot sat at it; its players are the accounts seated in its match, placed
as the engine placed them, except that whoever left the match (`abandon`) is placed last,
below everyone who played it out (leavers share the last place)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tournaments import matches
from tournaments.models import RatedMatch
from tournaments.open_tables.models import OpenTable
from tournaments.ratings.fold import placements_of


def read_input(match_id: Any) -> RatedMatch | None:
    """A finished rated open table's input to the fold, or None (not one, a bot sat, fewer
    than two players)."""
    table = OpenTable.objects.filter(match_id=match_id, rated=True).first()
    if table is None or matches.has_bots(match_id):
        return None
    outcome = matches.match_result(match_id)
    key = matches.rating_key(match_id)
    if not outcome.over or key is None:
        return None
    users = matches.seat_users_by_index(match_id)
    played = [(users[r.seat], r.placement) for r in outcome.results if r.seat in users and not r.left]
    left = [users[r.seat] for r in outcome.results if r.seat in users and r.left]
    if len(played) + len(left) < 2:
        return None
    lines = _ranked(played) + [(user, len(played) + 1) for user in left]
    return RatedMatch(
        match_id=match_id,
        family=matches.game_of(table.ruleset),
        key=key,
        tournament_id=None,
        placements=[list(line) for line in placements_of(lines)],
    )


def read_inputs() -> Iterable[RatedMatch]:
    """Every rated open table's input (a rebuild)."""
    ids = OpenTable.objects.filter(rated=True, status=OpenTable.FINISHED).values_list("match_id", flat=True)
    for match_id in ids.order_by("pk").iterator():
        found = read_input(match_id)
        if found is not None:
            yield found


def _ranked(lines: list[tuple[Any, int]]) -> list[tuple[Any, int]]:
    """The placements among these players only (1, 2, 2, 4): a leaver's place taken out."""
    ordered = sorted(lines, key=lambda line: line[1])
    ranked: list[tuple[Any, int]] = []
    for position, (user, placement) in enumerate(ordered):
        shared = ranked[-1][1] if ranked and ordered[position - 1][1] == placement else position + 1
        ranked.append((user, shared))
    return ranked
