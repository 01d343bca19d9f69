"""Translated labels handed to the ES modules (`{{ labels|json_script:"labels" }}`). The ruleset
options and stage formats, with their explanations, come from `tournaments.catalogue`."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournaments import catalogue
from tournaments.models import Entry, Membership, Round, Stage, Table, Tournament


def _statuses() -> dict[str, str]:
    """Every status code a page shows (tournament, stage, round, table, entry, match)."""
    names: dict[str, str] = {}
    for model in (Tournament, Stage, Round, Table, Entry):
        for code, name in model.STATUS_CHOICES:
            names.setdefault(code, str(name))
    names["registration"] = pgettext("tournament status", "registration open")
    names["live"] = _("live")
    return names


def labels() -> dict[str, Any]:
    return {
        # table
        "you": _("You"),
        "turn_of": _("Turn of %(name)s"),
        "your_turn": _("Your turn!"),
        "seconds_left": _("%(s)s s left"),
        "dice_count": _("%(n)s dice"),
        "out": _("Out"),
        "abandoned": _("Left the table"),
        "spectator": _("You are watching: only public information is shown."),
        "spectators": _("Spectators: %(n)s"),
        "your_dice": _("Your dice"),
        "hidden_dice": _("Your dice are hidden this round."),
        "no_bid": _("No bid yet"),
        "current_bid": _("Current bid"),
        "history": _("Bid history"),
        "round": _("Round %(n)s"),
        "quantity": _("Quantity"),
        "face": _("Face"),
        "min_hint": _("at least %(n)s"),
        "bid": _("Bid"),
        "direction": _("Direction"),
        "cw": _("Clockwise"),
        "ccw": _("Counter-clockwise"),
        "dudo": _("Dudo!"),
        "calza": _("Calza!"),
        "paso": _("Paso"),
        "salpicon": _("Salpicón"),
        "deny": _("Deny"),
        "believe": _("Believe (raise)"),
        "abandon": _("Abandon"),
        "abandon_confirm": _("Leave this match for good?"),
        "reveal": _("Reveal"),
        "players": _("Players"),
        "skip": _("Skip"),
        "bid_was": _("The bid"),
        "counting": _("Counted:"),
        "aces_wild": _("Aces (ones) are wild and count too"),
        "count_was": _("There were %(count)s × %(face)s (bid: %(q)s × %(face)s)."),
        "result": _("Result"),
        "lost_die": _("%(name)s loses %(n)s die"),
        "gained_die": _("%(name)s gains %(n)s die"),
        "eliminated": _("%(name)s is out"),
        "winner": _("%(name)s wins the match!"),
        "timed_out": _("(time ran out: automatic play)"),
        "mode_palifico": _("Palifico round: aces are not wild, the face is fixed"),
        "mode_obligado": _("Obligado round: you do not see your own dice"),
        "mode_blind": _("Blind round (a ciegas): nobody sees their dice"),
        "mode_normal": _("Normal round"),
        "connecting": _("Connecting…"),
        "connected": _("Connected"),
        "reconnecting": _("Connection lost, reconnecting…"),
        "error": _("Error"),
        "finished": _("Match finished"),
        "replay": _("Step-by-step replay"),
        "act": {
            "bid": _("bids"),
            "dudo": _("calls dudo"),
            "calza": _("calls calza"),
            "paso": _("says paso"),
            "salpicon": _("says salpicón"),
            "deny": _("denies"),
        },
        "result_kind": {
            "dudo": _("Dudo called"),
            "calza": _("Calza called"),
            "paso": _("Paso challenged"),
            "salpicon": _("Salpicón"),
            "restart": _("Round restarted"),
        },
        # alalay
        "boxes": {
            "ones": pgettext("alalay box", "Balas (ones)"),
            "twos": pgettext("alalay box", "Tontos (twos)"),
            "threes": pgettext("alalay box", "Trenes (threes)"),
            "fours": pgettext("alalay box", "Cuadras (fours)"),
            "fives": pgettext("alalay box", "Quinas (fives)"),
            "sixes": pgettext("alalay box", "Cenas (sixes)"),
            "straight": pgettext("alalay box", "Escalera (straight)"),
            "full": pgettext("alalay box", "Full"),
            "four": pgettext("alalay box", "Póker (four)"),
            "grande_1": pgettext("alalay box", "Grande"),
            "grande_2": pgettext("alalay box", "Grande"),
        },
        "throw": _("Throw"),
        "reroll": _("Re-roll the others"),
        "keep_hint": _("Choose the dice to keep, then re-roll the others."),
        "turn_die": _("Turn this die"),
        "must_turn": _("You must turn a die before scoring."),
        "score": _("Score"),
        "scratch": _("Scratch"),
        "would_give": _("%(n)s now"),
        "de_mano": _("de mano"),
        "de_huevo": _("de huevo"),
        "total": _("Total"),
        "win_reason": {
            "dormida": _("La dormida! Five of a kind in one throw."),
            "panza-de-oro": _("Panza de oro! Straight, full, póker and a grande."),
            "four-in-every-number": _("Four or better in every number!"),
            "points": _("Most points."),
        },
        # replay
        "first": _("First"),
        "previous": _("Previous"),
        "next": _("Next"),
        "last": _("Last"),
        "step": _("Step %(i)s of %(n)s"),
        # tournaments
        "loading": _("Loading…"),
        "none": _("Nothing yet."),
        "entries": _("Entries"),
        "rounds": _("Rounds"),
        "standings": _("Standings"),
        "table": _("Table %(n)s"),
        "watch": _("Watch"),
        "live": _("live"),
        "status": _("Status"),
        "saved": _("Saved."),
        "checked_in": _("checked in"),
        "check_in": _("Check in"),
        "started": _("Tournament started."),
        "created": _("Tournament created."),
        "imported": _("Imported: nothing refused. Open the match"),
        "refused": _("Refused, nothing was saved"),
        "statuses": _statuses(),
        "roles": {code: str(name) for code, name in Membership.ROLE_CHOICES},
        "rulesets": catalogue.ruleset_names(),
        "criteria": catalogue.criteria_names(),
        "formats": {f["format"]: f["name"] for f in catalogue.formats()},
        "ruleset": _("Ruleset"),
        "format": _("Format"),
        "turn_time": _("Turn time"),
        "played": pgettext("standings column", "Played"),
        "points": pgettext("standings column", "Points"),
        "tiebreak": _("Tiebreak"),
        "print": _("Print"),
        "manage": _("Manage %(name)s"),
        "no_clubs": _(
            "You own or organise no club yet: create one, or ask a club's owner to make you an organiser."
        ),
        "stage_n": _("Stage %(n)s"),
        "stage_name": _("Stage name"),
        "remove_stage": _("Remove this stage"),
        "move_up": _("Move up"),
        "move_down": _("Move down"),
        "advance": _("Who goes on to the next stage"),
        "advance_per_group": _("The best of each group"),
        "advance_overall": _("The best overall"),
        "per_group": _("Places per group"),
        "wildcards": _("Wildcards (best of the next place)"),
        "overall": _("How many go on"),
        "last_stage": _("The last stage ranks the tournament."),
        "groups_stage": pgettext("stage name", "Groups"),
        "playoffs_stage": pgettext("stage name", "Playoffs"),
        "checkin_until": _("Check-in until %(when)s"),
        "event_types": {
            "match_started": _("The match starts"),
            "round_started": _("A round starts"),
            "bid_made": _("Bid"),
            "paso_announced": _("Paso"),
            "salpicon_announced": _("Salpicón"),
            "round_resolved": _("Reveal"),
            "player_abandoned": _("A player leaves"),
            "dice_thrown": _("Throw"),
            "dice_rerolled": _("Re-roll"),
            "die_turned": _("A die turned"),
            "box_scored": _("Box scored"),
            "box_scratched": _("Box scratched"),
            "match_ended": _("The match ends"),
        },
    }
