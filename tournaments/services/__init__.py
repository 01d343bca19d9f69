"""The tournaments write path: every caller (API, admin actions, tasks, commands) changes
clubs, tournaments and entries only through these functions.

- clubs, their roles, members and log are a package of their own (`tournaments.clubs`);
- `tournament_setup`: create, settings; `lifecycle`: start, advance (rounds and stages);
- `entries`: register, check in, withdraw, reinstate, rename, ratings, table forfeits;
- `results`: results flowing from finished matches, and the safety-net sweep;
- `standings`: the standings projection and the final ranking;
- `formats`, `rankings`, `stage_data`, `stage_rows`, `tables`, `log`, `failures`: their parts.
"""

from tournaments.errors import Forbidden, NotFound, TournamentError
from tournaments.services.entries import (
    check_in,
    forfeit_table,
    register,
    reinstate,
    rename_entry,
    set_rating,
    withdraw,
)
from tournaments.services.lifecycle import advance, start_tournament
from tournaments.services.results import record_match, record_table_result, sweep
from tournaments.services.tournament_setup import create_tournament, update_settings

__all__ = [
    "Forbidden",
    "NotFound",
    "TournamentError",
    "advance",
    "check_in",
    "create_tournament",
    "forfeit_table",
    "record_match",
    "record_table_result",
    "register",
    "reinstate",
    "rename_entry",
    "set_rating",
    "start_tournament",
    "sweep",
    "update_settings",
    "withdraw",
]
