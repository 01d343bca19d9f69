"""The tournaments write path (see `tournaments.services.tournaments`)."""

from tournaments.services.errors import Forbidden, NotFound, TournamentError
from tournaments.services.tournaments import (
    add_member,
    advance,
    check_in,
    create_club,
    create_tournament,
    has_role,
    record_table_result,
    register,
    require_role,
    start_tournament,
    update_settings,
    withdraw,
)

__all__ = [
    "Forbidden",
    "NotFound",
    "TournamentError",
    "add_member",
    "advance",
    "check_in",
    "create_club",
    "create_tournament",
    "has_role",
    "record_table_result",
    "register",
    "require_role",
    "start_tournament",
    "update_settings",
    "withdraw",
]
