"""The words of a tournament's desk (entries, check-in, seeding) and of the organiser
console (the round in play and its tables)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from frontend.evening.clock_labels import clock_labels


def _counted(phrase: Callable[[int], str]) -> dict[str, str]:
    """Both forms of a counted phrase (`phrase(n)` calls ngettext); the page picks one with
    `Intl.PluralRules` ("one" or "other": what English and Spanish need)."""
    return {"one": phrase(1), "other": phrase(2)}


def table_states() -> dict[str, str]:
    return {
        "waiting": pgettext("table state", "waiting"),
        "playing": pgettext("table state", "playing"),
        "finished": pgettext("table state", "finished"),
        "disputed": pgettext("table state", "disputed"),
    }


def console_labels() -> dict[str, Any]:
    return {
        "states": table_states(),
        "clock": clock_labels(),
        "physical_help": _("Each table's play is entered by a scorekeeper instead of being played online."),
        # Seat links of walk-ins (tournaments.services.seat_links)
        "seat_links": _("Seat links of walk-ins: %(waiting)s of %(total)s waiting for the player"),
        "seat_link": _("Seat link: %(name)s"),
        "seat_waiting": _("waiting for the player"),
        "seat_claimed": _("seated"),
        "seat_reissue": _("New link"),
        "seat_reissue_confirm": _(
            "Revoke the seat link of %(name)s and make a new one? Whoever opened the old one no longer "
            "plays this seat."
        ),
        "no_club": _("You have no club to organise yet."),
        "create_club": _("Create a club"),
        "desk": _("Entries, check-in and seeding (the desk)"),
        "desk_running": _("Entries: withdraw, reinstate, disqualify, late entries (the desk)"),
        "club_page": _("Manage the club"),
        "counts": _("Entries: %(total)s · checked in: %(checked)s"),
        "counts_running": _(
            "Playing: %(active)s · withdrawn: %(withdrawn)s · disqualified: %(disqualified)s"
        ),
        "quick_add": _("Add an entry"),
        "quick_name": _("Name"),
        "quick_username": _("Account (username, optional)"),
        "quick_help": _(
            "Without an account the entry is a guest: it plays at a table and appears in the standings."
        ),
        "added": _("%(name)s is registered."),
        "round_in_play": _("Round %(n)s in play"),
        "round_last": _("Round %(n)s (finished)"),
        "stage_round": _("%(stage)s, round %(n)s"),
        "tables_done": _("%(done)s of %(all)s tables finished"),
        "byes": _("Byes: %(names)s"),
        "watch": _("Watch"),
        "keep_score": _("Keep score"),
        "physical": pgettext("table", "physical"),
        "see_disputes": _("Disputes"),
        "print": _("Print for round %(n)s:"),
        "print_cards": _("Table cards"),
        "print_pairings": _("Pairings for the wall"),
        "print_sheets": _("Alalay score sheets"),
        "print_slips": _("Result slips"),
        "no_round": _("No round has been drawn yet."),
        "finished_note": _("The tournament is over: the final ranking is on the tournament page."),
        "final_ranking": _("Final ranking and podium"),
        "start_help": _("Starting closes registration, seeds the entries and draws round 1."),
        "start": _("Start the tournament"),
        "close_and_start": _("Close check-in and start"),
        "close_and_start_help": _(
            "Check-in is still open: this closes it now (entries not checked in are dropped), "
            "seeds the entries and draws round 1."
        ),
        "close_and_start_confirm": _counted(
            lambda n: ngettext(
                "Close check-in and start now? %(n)s entry has not checked in: it is dropped.",
                "Close check-in and start now? %(n)s entries have not checked in: they are dropped.",
                n,
            )
        ),
        "make_physical": _("Make physical"),
        "default_choice": _("%(name)s (default)"),
        "make_online": _("Make online"),
        "place_line": _("%(place)s. %(name)s"),
        "forfeit": _("forfeit"),
        "updated": _("Updated %(time)s"),
        "api_docs": _("API reference"),
    }


def desk_labels() -> dict[str, Any]:
    return {
        "counts": _counted(lambda n: ngettext("%(n)s entry", "%(n)s entries", n)),
        "checked_count": _("%(checked)s of %(expected)s checked in"),
        "search": _("Find a name"),
        "no_match": _("No entry matches."),
        "guest": _("guest"),
        "account": _("Account"),
        "seed": _("Seed"),
        "actions": _("Actions"),
        "check_in": _("Check in"),
        "undo_check_in": _("Undo check-in"),
        "withdraw": _("Withdraw"),
        "reinstate": _("Reinstate"),
        "lift": _("Lift the disqualification"),
        "disqualify": _("Disqualify"),
        "dq_reason": _("Reason for the disqualification"),
        "dq_confirm": _("Disqualify"),
        "remove": _("Remove"),
        "remove_confirm": _("Remove %(name)s from the tournament?"),
        "withdraw_confirm": _("Withdraw %(name)s? They leave their table for good."),
        "claim": _("Link an account"),
        "claim_username": _("Username"),
        "claim_save": _("Link"),
        "substitute": _("Substitute"),
        "substitute_out": _("Leaves"),
        "substitute_in": _("Comes in (a name, or @username)"),
        "substitute_save": _("Substitute"),
        "cancel": _("Cancel"),
        "claimed": _("%(name)s is now played by %(user)s."),
        "pasted": _counted(lambda n: ngettext("%(n)s entry registered.", "%(n)s entries registered.", n)),
        "pasted_refused": _("Line %(line)s, %(name)s: %(message)s"),
        "pasted_blank": _counted(
            lambda n: ngettext("%(n)s blank line skipped.", "%(n)s blank lines skipped.", n)
        ),
        "late_open": _("Late entries join from the next round, with no points for the rounds they missed."),
        "late_closed": _("This tournament takes no more entries."),
        "late_title": _("Late entry"),
        "add_title": _("Add an entry"),
        "checkin_title": _("Check-in"),
        "checkin_none": _(
            "This tournament has no check-in: every registered entry plays. Set a deadline to check "
            "entries in; at the start, those not checked in are dropped."
        ),
        "checkin_until": _(
            "Check-in is open until %(when)s; at the start, entries not checked in are dropped."
        ),
        "checkin_closed": _("Check-in is closed."),
        "checkin_closed_at": _(
            "Check-in closed at %(when)s: %(checked)s checked in; %(waiting)s not checked in are "
            "dropped at the start. A new deadline opens it again."
        ),
        "close_confirm": _counted(
            lambda n: ngettext(
                "Close check-in now? %(n)s entry has not checked in: it is dropped at the start.",
                "Close check-in now? %(n)s entries have not checked in: they are dropped at the start.",
                n,
            )
        ),
        "deadline": _("Check-in deadline"),
        "deadline_save": _("Open check-in"),
        "deadline_change": _("Change the deadline"),
        "seeding_title": _("Seeding"),
        "seeding_help": _("Drag the entries into order, or type each one's seed number; 1 is the top seed."),
        "seeds_save": _("Save the seeds"),
        "seeds_saved": _("Seeds saved: the start seeds in this order."),
        "platform_rating": _("Platform rating"),
        "seeding_rating": _("Seeding rating"),
        "provisional": _("provisional"),
        "provisional_title": _("Provisional rating"),
        "no_platform_rating": _("none yet"),
        "ratings_filled": _("Seeding ratings filled from the platform ratings."),
        "seed_of": _("Seed of %(name)s"),
        "up": _("Move %(name)s up"),
        "down": _("Move %(name)s down"),
        "saved": _("Saved."),
        "back": _("Back to the console"),
        "disqualified_note": _(
            "A disqualified entry is out of play and ranked after everyone else; only an organiser lifts it."
        ),
    }
