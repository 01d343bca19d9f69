"""Translated labels of the lobby and the tournament page."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext


def tournament_page_labels() -> dict[str, Any]:
    """The tournament page's words: each table's result, live tables, the rounds diagram."""
    return {
        "watch_table": _("Watch table %(n)s of round %(r)s: %(players)s"),
        "open_table": _("Table %(n)s of round %(r)s: %(players)s, %(status)s"),
        "result_line": _("%(place)s. %(name)s"),
        "dice_left_one": _("%(n)s die left"),
        "dice_left_many": _("%(n)s dice left"),
        "points_n": _("%(n)s points"),
        "waiting": _("Waiting for the players"),
        # the standings: an entry some of whose tables time decided (docs/rules.md §9.1)
        "standing_at_time": pgettext("standings", "decided at time"),
        "standing_at_time_title": _("Time decided %(n)s of this entry's tables."),
    }


def lobby_labels() -> dict[str, Any]:
    """The lobby (home), "My matches" and the players' pages (`lobby.js`, `matches-list.js`)."""
    return {
        "watch": _("Watch"),
        "play": _("Go to the table"),
        "your_turn": _("It is your turn"),
        "waiting_in": _("You are entered in %(name)s: your next table appears here when it is drawn."),
        "no_next": _("No match of yours right now."),
        "no_tables": _("No table is being played right now."),
        "no_tournaments": _("None right now."),
        "no_player_tournaments": _("No tournament yet."),
        "bid": _("Bid: %(q)s × %(face)s by %(name)s"),
        "no_bid_yet": _("No bid yet this round"),
        "round": _("Round %(n)s"),
        "paused": _("Paused by the referee"),
        "to_act": _("%(name)s to play"),
        "dice_of": _("%(n)s dice"),
        "die_of": _("1 die"),
        "points": _("%(n)s points"),
        "out": _("out"),
        # %(c)s and %(p)s are percentages with their sign ("80 %").
        "interest": _("Why on TV: standings closeness %(c)s · bid pressure %(p)s"),
        "interest_alalay": _("Why on TV: standings closeness %(c)s · card filled %(p)s"),
        "no_other_tables": _("No other table right now."),
        "entries": _("%(n)s entries"),
        "entry_one": _("1 entry"),
        "casual": _("Casual match"),
        "table_in": _("%(name)s · round %(round)s, table %(table)s"),
        "vs": _("against"),
        "placement": _("Place %(n)s of %(m)s"),
        "won": _("Won"),
        "live": _("Live"),
        "replay": _("Replay"),
        "open": _("Open"),
        "nothing": _("No match matches these filters."),
        "page": _("Page %(page)s of %(pages)s"),
        "previous": _("Previous"),
        "next": _("Next"),
        "count_one": _("1 match"),
        "count": _("%(n)s matches"),
        "final_place": _("Final place: %(n)s of %(m)s"),
        "playing_as": _("as %(name)s"),
        "error": _("Could not load this list."),
        "statuses": {
            "live": _("live"),
            "finished": pgettext("match status", "finished"),
        },
    }
