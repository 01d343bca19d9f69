"""Translated labels handed to the ES modules (`{{ labels|json_script:"labels" }}`), and the
plain-language explanation of each ruleset option for the organiser console."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext


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
    }


def option_catalogue() -> dict[str, Any]:
    """Rulesets, their options with allowed values and defaults, and what each one means."""
    from cacho.engine.bidding.rules import OPTIONS

    explain = {
        "raise_rule": _(
            "standard: a raise may change the face freely; strict: each raise must raise the quantity."
        ),
        "calza_only_if_lost_dice": _("Only a player who has lost at least one die may call calza."),
        "calza_out_of_turn": _("Calza may be called by anyone, not only the player on turn."),
        "palifico_wild_pacos": _("In a palifico round aces stay wild."),
        "loser_chooses_direction": _("Whoever starts a round after losing chooses the direction of play."),
        "palifico_once_per_player": _("Each player gets at most one palifico round."),
        "no_palifico_or_calza_with_two_players": _(
            "With two players left there is no palifico and no calza."
        ),
        "no_calza_in_palifico": _("No calza during a palifico round."),
        "palifico_one_die_players_may_change_face": _(
            "In palifico, players who hold one die may change the face."
        ),
        "obligado_first_round_only": _("The obligado (dice unseen) applies only in the first round."),
        "aces_need_natural": _("A bid on aces needs a natural ace among the player's dice."),
        "opening_aces_free_conversion": _("Right after an opening on aces the conversion is free."),
        "paso_aces_wild": _("A paso hand counts aces as wild."),
        "calzo_after_paso": _("Calza is allowed right after a paso."),
        "bidding_rule": _(
            "reset-face: a higher face may keep the quantity; reset-quantity: a higher quantity may "
            "take any face; strict: both must not go down."
        ),
        "dormida_on_full_reroll": _(
            "Five of a kind from re-rolling all five dice is a dormida (an instant win)."
        ),
        "turn_exempt_if_made_hand": _(
            "Turning a die is optional when the second throw shows a straight, full, póker or grande."
        ),
    }
    rulesets: dict[str, Any] = {}
    for ruleset, specs in OPTIONS.items():
        rulesets[ruleset] = {
            name: {"values": list(values), "default": default, "help": explain.get(name, "")}
            for name, (values, default) in specs.items()
        }
    rulesets["alalay"] = {
        "dormida_on_full_reroll": {
            "values": [False, True],
            "default": True,
            "help": explain["dormida_on_full_reroll"],
        },
        "turn_exempt_if_made_hand": {
            "values": [False, True],
            "default": False,
            "help": explain["turn_exempt_if_made_hand"],
        },
    }
    formats = {
        "swiss": _("Swiss: several rounds, players with similar scores meet."),
        "round_robin": _("Round robin: everyone plays everyone in their group."),
        "table_elimination": _("Table elimination: the best of each table go on."),
        "single_elimination": _("Single elimination bracket."),
        "double_elimination": _("Double elimination bracket (a second chance)."),
        "final_table": _("One final table."),
        "alalay_event": _("Alalay event: qualifying rounds, then a final table."),
    }
    return {"rulesets": rulesets, "formats": formats}
