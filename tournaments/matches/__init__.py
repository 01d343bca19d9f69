"""The one package of `tournaments` that talks to the match server (`cacho`).

Everything the competition layer needs from a match goes through here: create the
match of a table (`create_table_match`), read a finished match's result from its
event stream (`match_result`, one line per seat, by the seat's index in the match),
forfeit what a withdrawn entry has left (`forfeit_seat`), and play bots (`bot_move`);
one module per concern, every name re-exported here (`from tournaments import matches`).
Seats are known by their index in the match: the names a match shows are labels fixed
when it was created. When `cacho` changes shape, this is the package to fix. The
dependency points one way: `cacho` never imports `tournaments`.
"""

from __future__ import annotations

from tournaments.matches.bots import SETUP_EVENTS, bot_move, forfeit_seat, under_way_among
from tournaments.matches.leaving import (
    deleted_player_label,
    forget_player,
    live_matches_of,
    player_deleted,
    seat_labels,
)
from tournaments.matches.open_tables import (
    bot_strengths,
    create_open_match,
    has_bots,
    match_status,
    seat_users_by_index,
)
from tournaments.matches.physical import (
    Sheet,
    check_entry,
    enter,
    import_table_record,
    match_version,
    pause_match,
    record_seat_names,
    sheet,
)
from tournaments.matches.ratings import rating_key, rating_keys, seat_users_of
from tournaments.matches.results import (
    MatchOutcome,
    SeatResult,
    event_hash,
    finish_times,
    finished_among,
    match_events,
    match_result,
    match_summaries,
    rebuild_match_projection,
    verified_matches,
)
from tournaments.matches.rulings import (
    MatchInfo,
    PlayedMatch,
    ended_at,
    match_exists,
    match_info,
    played_matches,
    rule_match,
    ruling_form,
    seat_name_and_user,
    seat_names,
    seat_users,
    seated_by_account,
)
from tournaments.matches.setup import (
    call_time,
    check_setup,
    create_table_match,
    game_of,
    option_specs,
    player_id,
    rulesets,
    team_seats,
    time_policies,
    traits,
)

__all__ = [
    "SETUP_EVENTS",
    "MatchInfo",
    "MatchOutcome",
    "PlayedMatch",
    "SeatResult",
    "Sheet",
    "bot_move",
    "bot_strengths",
    "call_time",
    "check_entry",
    "check_setup",
    "create_open_match",
    "create_table_match",
    "deleted_player_label",
    "ended_at",
    "enter",
    "event_hash",
    "finish_times",
    "finished_among",
    "forfeit_seat",
    "forget_player",
    "game_of",
    "has_bots",
    "import_table_record",
    "live_matches_of",
    "match_events",
    "match_exists",
    "match_info",
    "match_result",
    "match_status",
    "match_summaries",
    "match_version",
    "option_specs",
    "pause_match",
    "played_matches",
    "player_deleted",
    "player_id",
    "rating_key",
    "rating_keys",
    "rebuild_match_projection",
    "record_seat_names",
    "rule_match",
    "rulesets",
    "ruling_form",
    "seat_labels",
    "seat_name_and_user",
    "seat_names",
    "seat_users",
    "seat_users_by_index",
    "seat_users_of",
    "seated_by_account",
    "sheet",
    "team_seats",
    "time_policies",
    "traits",
    "under_way_among",
    "verified_matches",
]
