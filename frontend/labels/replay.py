"""Translated labels of a finished match's replay page."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from frontend.labels.rules import rule_terms
from tournaments.reads import catalogue


def replay_labels() -> dict[str, Any]:
    """The replay's words: every event in plain language (never its type code), the rule terms
    explained in a line each, the scrub bar, the download and the link to a moment."""
    return {
        "decided_at_time": _("decided at time"),
        "scrub": _("Step"),
        "jump_round": _("Jump to round"),
        "jump_turn": _("Jump to turn"),
        "round_n": _("Round %(n)s"),
        "turn_n": _("Turn %(n)s"),
        "start": _("Before the first round"),
        "start_turns": _("Before the first turn"),
        "moves": _("Moves"),
        "download": _("Download the record (.json)"),
        "copy_link": _("Copy a link to this moment"),
        "copied": _("Link copied: it opens the replay at this step."),
        "copy_failed": _("Copy this link by hand:"),
        "not_finished": _("The record can be downloaded once the match is over."),
        "terms": _("The rules in brief"),
        "terms_here": _("What it means"),
        "faces": {
            "1": pgettext("die face", "ace"),
            "2": pgettext("die face", "two"),
            "3": pgettext("die face", "three"),
            "4": pgettext("die face", "four"),
            "5": pgettext("die face", "five"),
            "6": pgettext("die face", "six"),
        },
        # Singular and plural forms for the counts the JavaScript fills in (it picks by n).
        "dice_one": _("%(n)s die"),
        "dice_many": _("%(n)s dice"),
        "loses": _("%(name)s loses %(dice)s."),
        "gains": _("%(name)s gains %(dice)s."),
        "out": _("%(name)s is out of the match."),
        "wins": _("%(name)s wins the match."),
        "auto": _("Time ran out: played automatically."),
        "words": {
            "match_started": _("The match starts: %(players)s."),
            "round_started": _("Round %(n)s starts; %(starter)s opens."),
            "bid_made": _("%(player)s bids %(q)s × %(face)s."),
            "paso_announced": _("%(player)s says paso."),
            "salpicon_announced": _("%(player)s says salpicón."),
            "dudo": _("%(caller)s calls dudo on %(target)s's bid of %(q)s × %(face)s: there were %(count)s."),
            "calza": _(
                "%(caller)s calls calza on %(target)s's bid of %(q)s × %(face)s: there were %(count)s."
            ),
            "paso": _("%(caller)s doubts %(target)s's paso."),
            "salpicon": _("%(caller)s denies %(target)s's salpicón."),
            "restart": _("The round is played again."),
            "player_abandoned": _("%(player)s leaves the match."),
            "turn_timed_out": _("%(entry)s ran out of time: the turn is played automatically."),
            "dice_thrown": _("%(entry)s throws %(dice)s."),
            "dice_rerolled": _("%(entry)s throws the others again: %(dice)s."),
            "die_turned": _("%(entry)s turns die %(n)s over to its opposite face."),
            "box_scored": _("%(entry)s scores %(points)s in %(box)s, %(how)s."),
            "box_scratched": _("%(entry)s scratches %(box)s (no points)."),
            "entry_abandoned": _("%(entry)s leaves the match."),
            "match_ended": _("The match ends: %(winners)s wins."),
            "match_ended_none": _("The match ends with no winner."),
            "match_paused": _("The referee pauses the match: %(reason)s"),
            "match_resumed": _("The referee resumes the match: %(reason)s"),
            "ruling_upheld": _("The referee upholds the play: %(reason)s"),
            "round_voided": _("The referee voids round %(round)s: %(reason)s"),
            "dice_changed": _("The referee changes %(player)s's dice by %(delta)s: %(reason)s"),
            "result_awarded": _("The referee awards the result (%(placements)s): %(reason)s"),
            "turn_corrected": _(
                "The referee corrects turn %(turn)s of %(entry)s to %(points)s in %(box)s: %(reason)s"
            ),
            "penalty_given": _("The referee deducts %(points)s points from %(entry)s: %(reason)s"),
            "entry_disqualified": _("The referee disqualifies %(entry)s: %(reason)s"),
            "match_reopened": _("The referee reopens the match from turn %(turn)s: %(reason)s"),
            "entry_undone": _("The scorekeeper undoes the last entry."),
            # rounds at time (docs/rules.md §9.1)
            "time_called": _("Time is called: %(policy)s decides the table once the play under way ends."),
            "decided_at_time": _("The table is decided at time: %(standing)s."),
            "players_set_aside": _(
                "Sudden death: %(players)s sit out with the dice they hold; %(starter)s opens."
            ),
            "other": _("A match event."),
        },
        # A physical table's round entered by its outcome (no die known).
        "recorded": {
            "dudo": _("%(caller)s calls dudo on %(target)s's bid (entered by its outcome)."),
            "calza": _("%(caller)s calls calza (entered by its outcome)."),
            "paso": _("%(caller)s doubts %(target)s's paso (entered by its outcome)."),
            "salpicon": _("%(caller)s denies %(target)s's salpicón (entered by its outcome)."),
            "restart": _("%(caller)s leaves the table between two rounds."),
        },
        # Card titles for the events `labels()["event_types"]` does not name.
        "kinds": {
            "turn_timed_out": _("Time ran out"),
            "entry_abandoned": _("A player leaves"),
            "match_paused": _("Paused by the referee"),
            "match_resumed": _("Resumed by the referee"),
            "ruling_upheld": _("Ruling: play upheld"),
            "round_voided": _("Ruling: round voided"),
            "dice_changed": _("Ruling: dice changed"),
            "result_awarded": _("Ruling: result awarded"),
            "turn_corrected": _("Ruling: turn corrected"),
            "penalty_given": _("Ruling: penalty"),
            "entry_disqualified": _("Ruling: disqualified"),
            "match_reopened": _("Ruling: match reopened"),
            "time_called": _("Time called"),
            "decided_at_time": _("Decided at time"),
            "players_set_aside": _("Sudden death"),
        },
        "policies": catalogue.time_policy_names(),
        "glossary": rule_terms(),
    }
