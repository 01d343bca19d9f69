"""The tournaments write path: every caller (API, admin actions, tasks, commands) changes
clubs, tournaments and entries only through these functions.

- `clubs`: who holds which role; `members`: creating a club, its details, members,
  invitations (`club_log`: the club's log);
- `tournament_setup`: create, settings; `lifecycle`: start, advance (rounds and stages);
- `entries`: register, check in, withdraw, reinstate, rename, ratings, table forfeits;
- `results`: results flowing from finished matches, and the safety-net sweep;
- `standings`: the standings projection and the final ranking;
- `formats`, `rankings`, `stage_data`, `stage_rows`, `tables`, `log`, `failures`: their parts.
"""

from tournaments.clubs.members import create_club
from tournaments.clubs.members import grant_role as add_member
from tournaments.clubs.roles import has_role, require_role
from tournaments.services.entries import (
    check_in,
    forfeit_table,
    register,
    reinstate,
    rename_entry,
    set_rating,
    withdraw,
)
from tournaments.services.errors import Forbidden, NotFound, TournamentError
from tournaments.services.lifecycle import advance, start_tournament
from tournaments.services.results import record_match, record_table_result, sweep
from tournaments.services.tournament_setup import create_tournament, update_settings

__all__ = [
    "Forbidden",
    "NotFound",
    "TournamentError",
    "add_member",
    "advance",
    "check_in",
    "create_club",
    "create_tournament",
    "forfeit_table",
    "has_role",
    "record_match",
    "record_table_result",
    "register",
    "reinstate",
    "rename_entry",
    "require_role",
    "set_rating",
    "start_tournament",
    "sweep",
    "update_settings",
    "withdraw",
]
