"""Bot entrants: `play_bots_once(tournament)` makes every bot on turn act once.

Bots play through the match write path (`cacho.services.matches.submit`, via
`tournaments.matches.bot_move`): random legal bids for the Dudo family
(`cacho.engine.bidding.bots`), the engine's auto-play policy for Alalay.
"""

from __future__ import annotations

import itertools
import random

from tournaments import matches
from tournaments.models import Table, Tournament

_commands = itertools.count(1)


def _bot_seats(table: Table) -> list[int]:
    """The match seats of the table's bot entrants."""
    return [s.match_seat for s in table.seats.all() if s.entry.is_bot and s.match_seat is not None]


def play_bots_once(tournament: Tournament | int, rng: random.Random | None = None) -> int:
    """One move for each playing table whose player on turn is a bot; the moves made."""
    tournament_id = tournament.pk if isinstance(tournament, Tournament) else tournament
    rng = rng or random.Random()
    moved = 0
    tables = Table.objects.filter(round__tournament_id=tournament_id, status=Table.PLAYING).prefetch_related(
        "seats__entry"
    )
    for table in tables:
        if table.match_id is None:
            continue
        bots = _bot_seats(table)
        if bots and matches.bot_move(
            table.match_id, bots, rng, f"bot-{table.match_id}-{next(_commands)}-{rng.getrandbits(32)}"
        ):
            moved += 1
    return moved


def play_bots_until_stuck(tournament: Tournament | int, rng: random.Random | None = None) -> int:
    """Bots play every playing table until no bot is on turn anywhere (tests, demo); the moves made."""
    tournament_id = tournament.pk if isinstance(tournament, Tournament) else tournament
    rng = rng or random.Random()
    moved = 0
    tables = Table.objects.filter(round__tournament_id=tournament_id, status=Table.PLAYING).prefetch_related(
        "seats__entry"
    )
    for table in tables:
        bots = _bot_seats(table)
        if table.match_id is None or not bots:
            continue
        while matches.bot_move(
            table.match_id, bots, rng, f"bot-{table.match_id}-{next(_commands)}-{rng.getrandbits(32)}"
        ):
            moved += 1
    return moved
